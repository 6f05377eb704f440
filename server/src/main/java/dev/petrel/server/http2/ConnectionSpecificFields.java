package dev.petrel.server.http2;

import java.util.Set;

/**
 * The fields that belong to one HTTP/1.1 connection and have no meaning in HTTP/2 (RFC 9113
 * section 8.2.2): a response a handler wrote for either protocol loses them on the way out.
 */
final class ConnectionSpecificFields {
    private static final Set<String> NAMES = Set.of("connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade");

    private ConnectionSpecificFields() {}

    /** Whether {@code lowerCaseName} is one of them. */
    static boolean contains(String lowerCaseName) {
        return NAMES.contains(lowerCaseName);
    }
}
