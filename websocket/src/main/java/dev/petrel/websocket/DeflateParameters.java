package dev.petrel.websocket;

import java.util.List;
import java.util.Locale;

/**
 * The parameters of one permessage-deflate offer or response (RFC 7692 section 7.1), checked:
 * each known at most once, with a value where it takes one, nothing unknown.
 *
 * @param serverNoContextTakeover whether {@code server_no_context_takeover} was given
 * @param clientNoContextTakeover whether {@code client_no_context_takeover} was given
 * @param serverMaxWindowBits {@code server_max_window_bits}, 8 to 15, or {@link #ABSENT}
 * @param clientMaxWindowBits {@code client_max_window_bits}, 8 to 15, {@link #NO_VALUE} when
 *     given without one (an offer may), or {@link #ABSENT}
 */
record DeflateParameters(boolean serverNoContextTakeover, boolean clientNoContextTakeover,
                         int serverMaxWindowBits, int clientMaxWindowBits) {
    static final String EXTENSION = "permessage-deflate";
    static final String SERVER_NO_CONTEXT_TAKEOVER = "server_no_context_takeover";
    static final String CLIENT_NO_CONTEXT_TAKEOVER = "client_no_context_takeover";
    static final String SERVER_MAX_WINDOW_BITS = "server_max_window_bits";
    static final String CLIENT_MAX_WINDOW_BITS = "client_max_window_bits";
    /** The window the JDK's {@code Deflater} always uses, and the largest DEFLATE allows. */
    static final int JDK_WINDOW_BITS = 15;
    static final int ABSENT = -1;
    static final int NO_VALUE = 0;

    /**
     * The parameters of an element, or null when they break section 7.1: a parameter given twice
     * (section 7: "MUST NOT include ... more than one"), one the extension does not define, a
     * value on a parameter that takes none, a window size that is not a decimal integer from 8 to
     * 15 without leading zeros, or a {@code server_max_window_bits} without a value.
     */
    static DeflateParameters parse(List<ExtensionList.Param> params) {
        boolean serverNoContext = false;
        boolean clientNoContext = false;
        int serverBits = ABSENT;
        int clientBits = ABSENT;
        for (ExtensionList.Param param : params) {
            String value = param.value();
            switch (param.name().toLowerCase(Locale.ROOT)) {
                case SERVER_NO_CONTEXT_TAKEOVER -> {
                    if (serverNoContext || value != null) return null;
                    serverNoContext = true;
                }
                case CLIENT_NO_CONTEXT_TAKEOVER -> {
                    if (clientNoContext || value != null) return null;
                    clientNoContext = true;
                }
                case SERVER_MAX_WINDOW_BITS -> {
                    if (serverBits != ABSENT) return null;
                    serverBits = windowBits(value);
                    if (serverBits == ABSENT || serverBits == NO_VALUE) return null;
                }
                case CLIENT_MAX_WINDOW_BITS -> {
                    if (clientBits != ABSENT) return null;
                    clientBits = value == null ? NO_VALUE : windowBits(value);
                    if (clientBits == ABSENT) return null;
                }
                default -> {
                    return null;
                }
            }
        }
        return new DeflateParameters(serverNoContext, clientNoContext, serverBits, clientBits);
    }

    /** "8" to "15" as a number; {@link #ABSENT} for anything else, a missing value included. */
    private static int windowBits(String value) {
        if (value == null || value.isEmpty() || value.length() > 2 || value.charAt(0) == '0') return ABSENT;
        int bits = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') return ABSENT;
            bits = 10 * bits + (c - '0');
        }
        return bits >= 8 && bits <= 15 ? bits : ABSENT;
    }
}
