package dev.petrel.http;

/**
 * Size limits {@link MultipartParser} enforces on a {@code multipart/form-data} body. Every limit
 * is checked as bytes arrive, and exceeding any of them gives 413 with a reason naming it.
 *
 * <p>The defaults are generous on purpose: a limit that is too tight breaks real uploads (as
 * Tomcat's small per-part defaults after CVE-2025-48988 did), while what these limits guard
 * against is a peer making the parser do unbounded work or keep unbounded state. The parser never
 * holds a part body (it streams it out), so a large body costs the caller what it chooses to do
 * with it, not the parser.
 *
 * <table>
 *   <caption>Limits and defaults</caption>
 *   <tr><th>Limit</th><th>Default</th></tr>
 *   <tr><td>{@code maxParts}: parts in one body</td><td>1,000</td></tr>
 *   <tr><td>{@code maxPartHeaderBytes}: the header section of one part, its CRLFs and the empty
 *       line that ends it included; the parser keeps this much per part</td><td>16 KiB</td></tr>
 *   <tr><td>{@code maxPartBytes}: the body of one part</td><td>1 GiB</td></tr>
 *   <tr><td>{@code maxTotalBytes}: every byte the parser consumes up to the close delimiter
 *       (preamble, delimiters, header sections and bodies)</td><td>4 GiB</td></tr>
 * </table>
 *
 * @param maxParts most parts accepted
 * @param maxPartHeaderBytes largest header section of one part accepted, in bytes
 * @param maxPartBytes largest body of one part accepted, in bytes
 * @param maxTotalBytes largest multipart body accepted, in bytes
 */
public record MultipartLimits(int maxParts, int maxPartHeaderBytes, long maxPartBytes, long maxTotalBytes) {

    /** The defaults in the table above. */
    public static final MultipartLimits DEFAULT =
            new MultipartLimits(1_000, 16 * 1024, 1024L * 1024 * 1024, 4L * 1024 * 1024 * 1024);

    /** Checks that every limit is positive (a part body may be limited to 0 bytes). */
    public MultipartLimits {
        if (maxParts < 1) throw new IllegalArgumentException("maxParts must be positive");
        if (maxPartHeaderBytes < 1) throw new IllegalArgumentException("maxPartHeaderBytes must be positive");
        if (maxPartBytes < 0) throw new IllegalArgumentException("maxPartBytes must not be negative");
        if (maxTotalBytes < 1) throw new IllegalArgumentException("maxTotalBytes must be positive");
    }
}
