package dev.petrel.bench.soak;

import java.util.HexFormat;

/**
 * Names the first TLS record of what a server sent back (RFC 8446 section 5.1: a type byte, a
 * version, a length), so that a detail says {@code alert fatal decode_error} rather than bytes.
 */
final class TlsRecords {
    private static final int HANDSHAKE = 22;
    private static final int ALERT = 21;
    private static final int CHANGE_CIPHER_SPEC = 20;
    private static final int APPLICATION_DATA = 23;

    private TlsRecords() {}

    /** What {@code bytes}, the start of the server's answer, begin with. */
    static String describe(byte[] bytes) {
        if (bytes.length == 0) return "nothing";
        if (bytes.length < 5) return "bytes " + HexFormat.ofDelimiter(" ").formatHex(bytes);
        int type = bytes[0] & 0xFF;
        int length = (bytes[3] & 0xFF) << 8 | bytes[4] & 0xFF;
        String version = String.format("%02x%02x", bytes[1], bytes[2]);
        return switch (type) {
            case ALERT -> bytes.length >= 7 ? "alert " + (bytes[5] == 2 ? "fatal " : "warning ") + alertName(bytes[6] & 0xFF) : "an alert";
            case HANDSHAKE -> "a handshake record of " + length + " bytes (version " + version + ")"
                    + (bytes.length > 5 && bytes[5] == 2 ? ", a ServerHello" : "");
            case CHANGE_CIPHER_SPEC -> "a change_cipher_spec record";
            case APPLICATION_DATA -> "an application_data record";
            default -> "bytes " + HexFormat.ofDelimiter(" ").formatHex(bytes, 0, Math.min(bytes.length, 8)) + " (not TLS)";
        };
    }

    /** The alerts a server may send about bytes that make no handshake (RFC 8446 section 6). */
    private static String alertName(int description) {
        return switch (description) {
            case 0 -> "close_notify";
            case 10 -> "unexpected_message";
            case 20 -> "bad_record_mac";
            case 22 -> "record_overflow";
            case 40 -> "handshake_failure";
            case 47 -> "illegal_parameter";
            case 50 -> "decode_error";
            case 51 -> "decrypt_error";
            case 70 -> "protocol_version";
            case 80 -> "internal_error";
            case 109 -> "missing_extension";
            case 120 -> "no_application_protocol";
            default -> "description " + description;
        };
    }
}
