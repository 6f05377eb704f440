package dev.petrel.http;

/**
 * Size limits the codec enforces while parsing. Every limit is checked as bytes arrive, so a
 * peer can never make the parser hold more than these sizes.
 *
 * <table>
 *   <caption>Limits and defaults</caption>
 *   <tr><th>Limit</th><th>Default</th><th>Exceeded</th></tr>
 *   <tr><td>{@code maxRequestLineLength}: request line, CRLF excluded</td><td>8 KiB</td>
 *       <td>414 when the target is what overflows, else 400</td></tr>
 *   <tr><td>{@code maxHeaderSectionSize}: all field lines of the head, or of the trailers</td>
 *       <td>16 KiB</td><td>431</td></tr>
 *   <tr><td>{@code maxHeaderCount}: field lines in the head, or in the trailers</td><td>100</td><td>431</td></tr>
 *   <tr><td>{@code maxBodySize}: decoded request body</td><td>16 MiB</td><td>413</td></tr>
 *   <tr><td>{@code maxChunkLineLength}: chunk size line with its extensions</td><td>1 KiB</td><td>400</td></tr>
 * </table>
 *
 * @param maxRequestLineLength longest request line accepted, in bytes
 * @param maxHeaderSectionSize largest header (or trailer) section accepted, in bytes
 * @param maxHeaderCount most field lines accepted in one section
 * @param maxBodySize largest request body accepted, in bytes
 * @param maxChunkLineLength longest chunk-size line accepted, in bytes
 */
public record HttpLimits(
        int maxRequestLineLength,
        int maxHeaderSectionSize,
        int maxHeaderCount,
        long maxBodySize,
        int maxChunkLineLength) {

    /** The defaults in the table above. */
    public static final HttpLimits DEFAULT = new HttpLimits(8 * 1024, 16 * 1024, 100, 16L * 1024 * 1024, 1024);

    /** Checks that every limit is positive. */
    public HttpLimits {
        if (maxRequestLineLength < 16) throw new IllegalArgumentException("maxRequestLineLength must be at least 16");
        if (maxHeaderSectionSize < 1) throw new IllegalArgumentException("maxHeaderSectionSize must be positive");
        if (maxHeaderCount < 1) throw new IllegalArgumentException("maxHeaderCount must be positive");
        if (maxBodySize < 0) throw new IllegalArgumentException("maxBodySize must not be negative");
        if (maxChunkLineLength < 3) throw new IllegalArgumentException("maxChunkLineLength must be at least 3");
    }

    /** A copy with another body limit. */
    public HttpLimits withMaxBodySize(long bytes) {
        return new HttpLimits(maxRequestLineLength, maxHeaderSectionSize, maxHeaderCount, bytes, maxChunkLineLength);
    }

    /** A copy with another request line limit. */
    public HttpLimits withMaxRequestLineLength(int bytes) {
        return new HttpLimits(bytes, maxHeaderSectionSize, maxHeaderCount, maxBodySize, maxChunkLineLength);
    }

    /** A copy with another header section limit. */
    public HttpLimits withMaxHeaderSectionSize(int bytes) {
        return new HttpLimits(maxRequestLineLength, bytes, maxHeaderCount, maxBodySize, maxChunkLineLength);
    }

    /** A copy with another header count limit. */
    public HttpLimits withMaxHeaderCount(int count) {
        return new HttpLimits(maxRequestLineLength, maxHeaderSectionSize, count, maxBodySize, maxChunkLineLength);
    }
}
