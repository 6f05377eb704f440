package dev.petrel.server.ajp;

import dev.petrel.ajp.AjpRequestHead;
import dev.petrel.server.config.AjpConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Who may send requests over AJP: the front end that knows the shared secret, with no attribute
 * outside the allowed ones. AJP lets the sender set request attributes the application trusts;
 * Tomcat's Ghostcat (CVE-2020-1938) read files through such attributes sent by anyone who could
 * reach the port. Here an unknown attribute refuses the whole request.
 */
final class AjpAccess {
    private static final int MAX_LOGGED_NAME = 64;

    private final byte[] secret;
    private final AjpConfig config;

    AjpAccess(AjpConfig config) {
        this.secret = config.secret() == null ? null : config.secret().getBytes(StandardCharsets.ISO_8859_1);
        this.config = config;
    }

    /** Why the request must be refused with {@code 403}, in one line for the log, or {@code null} when it may be served. */
    String refusal(AjpRequestHead head) {
        if (secret != null) {
            if (head.secret() == null) return "it carries no secret (the front end needs the same secret as this listener)";
            // constant time: the comparison must not tell a prober how much of its guess was right
            if (!MessageDigest.isEqual(secret, head.secret().getBytes(StandardCharsets.ISO_8859_1))) {
                return "its secret is wrong";
            }
        }
        for (int i = 0; i < head.attributeCount(); i++) {
            String name = head.attributeName(i);
            if (!config.allowsAttribute(name)) {
                return "it carries the request attribute '" + printable(name) + "', which is not allowed";
            }
        }
        return null;
    }

    /** A name as sent by a stranger, safe to put in a log line: no control characters, bounded. */
    private static String printable(String name) {
        StringBuilder text = new StringBuilder(Math.min(name.length(), MAX_LOGGED_NAME));
        for (int i = 0; i < name.length() && i < MAX_LOGGED_NAME; i++) {
            char c = name.charAt(i);
            text.append(c >= 0x20 && c < 0x7F ? c : '?');
        }
        if (name.length() > MAX_LOGGED_NAME) text.append("...");
        return text.toString();
    }
}
