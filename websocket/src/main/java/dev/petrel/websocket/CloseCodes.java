package dev.petrel.websocket;

/**
 * Close status codes (RFC 6455 section 7.4 and the IANA "WebSocket Close Code Number Registry")
 * and the rule deciding which of them may appear in a close frame.
 *
 * <p>{@link #NO_STATUS} and {@link #ABNORMAL} (and 1015, a failed TLS handshake) are never sent:
 * they name what a close frame did not say (no body) or that no close frame came at all. The
 * decoder reports {@link #NO_STATUS} for a close frame without a body.
 */
public final class CloseCodes {
    /** 1000: the purpose of the connection was fulfilled. */
    public static final int NORMAL = 1000;
    /** 1001: the endpoint is going away (a server shutting down, a browser leaving the page). */
    public static final int GOING_AWAY = 1001;
    /** 1002: the peer broke the protocol. */
    public static final int PROTOCOL_ERROR = 1002;
    /** 1003: the endpoint cannot accept this type of data (text to a binary-only endpoint, say). */
    public static final int UNSUPPORTED_DATA = 1003;
    /** 1005: reported, never sent: the close frame had no status code. */
    public static final int NO_STATUS = 1005;
    /** 1006: reported, never sent: the connection ended without a close frame. */
    public static final int ABNORMAL = 1006;
    /** 1007: a message's data was not consistent with its type (text that is not UTF-8). */
    public static final int INVALID_PAYLOAD = 1007;
    /** 1008: a message broke the endpoint's policy; the generic code when no other fits. */
    public static final int POLICY_VIOLATION = 1008;
    /** 1009: a message (or frame) was too big to process. */
    public static final int MESSAGE_TOO_BIG = 1009;
    /** 1010: sent by a client when the server did not negotiate an extension it requires. */
    public static final int MANDATORY_EXTENSION = 1010;
    /** 1011: the server met an unexpected condition that kept it from fulfilling the request. */
    public static final int INTERNAL_ERROR = 1011;
    /** 1012: the service is restarting (IANA registry). */
    public static final int SERVICE_RESTART = 1012;
    /** 1013: the service is overloaded; try again later (IANA registry). */
    public static final int TRY_AGAIN_LATER = 1013;
    /** 1014: a gateway or proxy got an invalid response from upstream (IANA registry). */
    public static final int BAD_GATEWAY = 1014;

    private CloseCodes() {}

    /**
     * Whether {@code code} may be carried by a close frame: the codes defined for sending in
     * 1000-1003 and 1007-1011, the later registered 1012-1014, and the ranges for libraries and
     * frameworks (3000-3999) and for applications (4000-4999). Everything else (below 1000,
     * 1004-1006, 1015, the unassigned 1016-2999, 5000 and above) is a protocol error when
     * received (section 7.4.1; Autobahn case 7.9.x).
     */
    public static boolean validOnWire(int code) {
        return (code >= NORMAL && code <= UNSUPPORTED_DATA)
                || (code >= INVALID_PAYLOAD && code <= BAD_GATEWAY)
                || (code >= 3000 && code <= 4999);
    }
}
