package dev.petrel.server.engine.exchange;

/** What a handler may set on a response, checked the same way whatever protocol carries it. */
final class ResponseRules {
    private ResponseRules() {}

    /** Checks a status a handler sets: three digits, and not an interim or upgrade one, which are the server's to send. */
    static int checkStatus(int status) {
        if (status < 100 || status > 999) throw new IllegalArgumentException("status must have three digits: " + status);
        if (status < 200) throw new IllegalArgumentException("interim and upgrade responses are the server's to send: " + status);
        return status;
    }

    /**
     * Whether a header is framing, which belongs to the engine: returns the declared length for
     * {@code Content-Length} (to be taken as the response's declared length), -1 for any other
     * header, and refuses {@code Transfer-Encoding}.
     */
    static long framingLength(String name, String value) {
        if ("Content-Length".equalsIgnoreCase(name)) {
            long length;
            try {
                length = Long.parseLong(value.strip());
            } catch (NumberFormatException | NullPointerException e) {
                throw new IllegalArgumentException("invalid Content-Length: " + value);
            }
            if (length < 0) throw new IllegalArgumentException("negative Content-Length");
            return length;
        }
        if ("Transfer-Encoding".equalsIgnoreCase(name)) {
            throw new IllegalArgumentException("Transfer-Encoding is set by the server");
        }
        return -1;
    }
}
