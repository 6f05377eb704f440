package dev.petrel.websocket;

import java.util.zip.Deflater;

/**
 * What an endpoint is willing to do with permessage-deflate (RFC 7692), for
 * {@link PerMessageDeflate#negotiate} on a server and {@link PerMessageDeflate#clientOffer} on a
 * client.
 *
 * <table>
 *   <caption>Settings and defaults</caption>
 *   <tr><th>Setting</th><th>{@link #DEFAULT}</th></tr>
 *   <tr><td>{@code enabled}: whether to negotiate the extension at all</td><td>true</td></tr>
 *   <tr><td>{@code compressionLevel}: 0 (store) to 9 (smallest), -1 for zlib's default (6)</td><td>-1</td></tr>
 *   <tr><td>{@code minSizeToCompress}: data messages shorter than this, in bytes, are sent
 *       uncompressed (RSV1 clear), as RFC 7692 allows. 0 by default: every message is compressed, as
 *       Jetty, Netty and Tomcat do, because with context takeover even a few bytes that repeat earlier
 *       messages shrink, and because some clients mishandle a plain message inside a compressed
 *       session (kosoku, the Autobahn runner, fails on them)</td><td>0</td></tr>
 *   <tr><td>{@code serverNoContextTakeover}: on a server, restart the compressor after every
 *       message (and say so: {@code server_no_context_takeover}) even when the client did not ask;
 *       on a client, ask the server to</td><td>false</td></tr>
 * </table>
 *
 * <p>Context takeover (the default) compresses repetitive streams of small messages far better;
 * turning it off makes each message independent of the ones before, at that cost.
 *
 * @param enabled whether the extension is negotiated
 * @param compressionLevel the {@link Deflater} level, -1 to 9
 * @param minSizeToCompress the smallest data message compressed, in bytes
 * @param serverNoContextTakeover whether the server's compressor restarts for every message
 */
public record DeflateSettings(boolean enabled, int compressionLevel, int minSizeToCompress, boolean serverNoContextTakeover) {
    /** The extension on, with the defaults in the table above. */
    public static final DeflateSettings DEFAULT = new DeflateSettings(true, Deflater.DEFAULT_COMPRESSION, 0, false);

    /** The extension off: never negotiated. */
    public static final DeflateSettings DISABLED = new DeflateSettings(false, Deflater.DEFAULT_COMPRESSION, 0, false);

    /** Checks the level and the size. */
    public DeflateSettings {
        if (compressionLevel < -1 || compressionLevel > 9) throw new IllegalArgumentException("compressionLevel outside -1..9: " + compressionLevel);
        if (minSizeToCompress < 0) throw new IllegalArgumentException("negative minSizeToCompress: " + minSizeToCompress);
    }

    /** A copy with another level. */
    public DeflateSettings withCompressionLevel(int level) {
        return new DeflateSettings(enabled, level, minSizeToCompress, serverNoContextTakeover);
    }

    /** A copy with another smallest size compressed. */
    public DeflateSettings withMinSizeToCompress(int bytes) {
        return new DeflateSettings(enabled, compressionLevel, bytes, serverNoContextTakeover);
    }

    /** A copy with context takeover on the server's side off ({@code true}) or allowed. */
    public DeflateSettings withServerNoContextTakeover(boolean noContextTakeover) {
        return new DeflateSettings(enabled, compressionLevel, minSizeToCompress, noContextTakeover);
    }
}
