package dev.petrel.http2;

/**
 * Receives the fields {@link HpackDecoder} decodes, one call per field in block order. The arrays
 * are the decoder's own buffers or table entries: they are only valid during the call, and a sink
 * that keeps a field copies its bytes.
 */
@FunctionalInterface
public interface FieldSink {
    /**
     * One decoded field: {@code nameLength} bytes of {@code name} from {@code nameOffset}, and
     * {@code valueLength} bytes of {@code value} from {@code valueOffset}. HPACK carries any bytes;
     * whether they are a valid field is for the caller to check (RFC 9113 section 8.2).
     */
    void field(byte[] name, int nameOffset, int nameLength, byte[] value, int valueOffset, int valueLength);
}
