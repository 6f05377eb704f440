package dev.petrel.server.tls;

/** Reads TLS record framing (RFC 8446 section 5.1) in captured ciphertext. */
final class TlsEndpointRecords {
    private TlsEndpointRecords() {}

    /** The number of whole records in {@code ciphertext}, which must hold whole records only. */
    static int count(byte[] ciphertext) {
        int records = 0;
        int at = 0;
        while (at < ciphertext.length) {
            if (ciphertext.length - at < 5) throw new IllegalArgumentException("partial record header at " + at);
            int length = ((ciphertext[at + 3] & 0xff) << 8) | (ciphertext[at + 4] & 0xff);
            at += 5 + length;
            if (at > ciphertext.length) throw new IllegalArgumentException("partial record");
            records++;
        }
        return records;
    }
}
