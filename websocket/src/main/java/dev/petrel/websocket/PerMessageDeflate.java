package dev.petrel.websocket;

import java.util.List;

/**
 * The permessage-deflate extension (RFC 7692): its negotiation in the opening handshake, and the
 * compressor and inflater one connection uses once it is agreed.
 *
 * <p>A server calls {@link #negotiate} with the request's {@code Sec-WebSocket-Extensions} values
 * and, when it answers, puts {@link Negotiated#responseHeaderValue()} in its 101 response and hands
 * {@link Negotiated#serverSide()} to the connection's {@link MessageDecoder} and
 * {@link MessageEncoder}. A client sends {@link #clientOffer} and reads the server's answer with
 * {@link #acceptResponse}.
 *
 * <p>What it accepts. The JDK's {@code Deflater} always uses a 15-bit window, so an offer asking
 * the server for a smaller one ({@code server_max_window_bits} below 15) is declined and the next
 * offer tried; the {@code Inflater} has a 15-bit window, which inflates what any smaller window
 * produced, so {@code client_max_window_bits} is accepted with or without a value and never
 * answered (the client keeps the window it wants). An offer with a parameter given twice, one the
 * extension does not define, or a value that is not valid, is declined (section 7.1: "MUST
 * decline"); so is one that breaks the header's grammar. Extension and parameter names are
 * matched without regard to case.
 *
 * <p>One instance serves one connection: the encoder uses its compressor, the decoder its
 * inflater, each from one thread at a time, possibly not the same. Both hold native memory,
 * taken on first use (a connection that never sends a compressed message never takes the
 * compressor's); {@link #close} frees it once the connection is done.
 */
public final class PerMessageDeflate implements AutoCloseable {
    /**
     * A server's acceptance of one offer.
     *
     * @param responseHeaderValue the {@code Sec-WebSocket-Extensions} value of the 101 response
     * @param serverSide the extension as the server runs it, for its decoder and encoder
     */
    public record Negotiated(String responseHeaderValue, PerMessageDeflate serverSide) {}

    private final int minSizeToCompress;
    private final boolean ownNoContextTakeover;
    private final boolean peerNoContextTakeover;
    private final MessageCompressor compressor;
    private final MessageInflater inflater;

    private PerMessageDeflate(DeflateSettings settings, boolean ownNoContextTakeover, boolean peerNoContextTakeover) {
        this.minSizeToCompress = settings.minSizeToCompress();
        this.ownNoContextTakeover = ownNoContextTakeover;
        this.peerNoContextTakeover = peerNoContextTakeover;
        this.compressor = new MessageCompressor(settings.compressionLevel(), ownNoContextTakeover);
        this.inflater = new MessageInflater(peerNoContextTakeover);
    }

    /**
     * Server side: accepts the first acceptable permessage-deflate offer among the request's
     * {@code Sec-WebSocket-Extensions} values (several header lines, each a list of extensions and
     * offers), or answers null when none is acceptable or {@code settings} are not enabled. The
     * response names {@code server_no_context_takeover} when the offer asked for it or
     * {@code settings} want it, echoes {@code client_no_context_takeover} when the client offered
     * it, and answers {@code server_max_window_bits=15} when the offer limited a window the JDK
     * cannot shrink to 15, the one value it accepts.
     *
     * @param secWebSocketExtensionsValues the header's values, in order; null or empty for none
     */
    public static Negotiated negotiate(List<String> secWebSocketExtensionsValues, DeflateSettings settings) {
        if (settings == null || !settings.enabled()) return null;
        for (ExtensionList.Element element : ExtensionList.parse(secWebSocketExtensionsValues)) {
            if (element.malformed() || !element.name().equalsIgnoreCase(DeflateParameters.EXTENSION)) continue;
            DeflateParameters offer = DeflateParameters.parse(element.params());
            if (offer == null) continue;
            boolean limitsServerWindow = offer.serverMaxWindowBits() != DeflateParameters.ABSENT;
            if (limitsServerWindow && offer.serverMaxWindowBits() < DeflateParameters.JDK_WINDOW_BITS) continue;
            boolean serverNoContext = offer.serverNoContextTakeover() || settings.serverNoContextTakeover();
            StringBuilder response = new StringBuilder(DeflateParameters.EXTENSION);
            if (serverNoContext) response.append("; ").append(DeflateParameters.SERVER_NO_CONTEXT_TAKEOVER);
            if (offer.clientNoContextTakeover()) response.append("; ").append(DeflateParameters.CLIENT_NO_CONTEXT_TAKEOVER);
            if (limitsServerWindow) {
                response.append("; ").append(DeflateParameters.SERVER_MAX_WINDOW_BITS).append('=').append(DeflateParameters.JDK_WINDOW_BITS);
            }
            return new Negotiated(response.toString(), new PerMessageDeflate(settings, serverNoContext, offer.clientNoContextTakeover()));
        }
        return null;
    }

    /**
     * Client side: the {@code Sec-WebSocket-Extensions} value offering the extension:
     * {@code permessage-deflate}, with {@code server_no_context_takeover} when {@code settings}
     * ask for it. It never offers {@code client_max_window_bits}: the JDK's compressor could not
     * honour a smaller window the server might then ask for.
     */
    public static String clientOffer(DeflateSettings settings) {
        return settings.serverNoContextTakeover()
                ? DeflateParameters.EXTENSION + "; " + DeflateParameters.SERVER_NO_CONTEXT_TAKEOVER
                : DeflateParameters.EXTENSION;
    }

    /**
     * Client side: the extension as the server's 101 response agreed it, after an offer from
     * {@link #clientOffer} with the same {@code settings}; null when the response names no
     * extension (the server declined).
     *
     * @param responseHeaderValue the response's {@code Sec-WebSocket-Extensions} value, or null
     * @throws WebSocketException 1002 when the response cannot answer the offer (section 7.1):
     *     another extension, more than one, a malformed one, parameters the extension does not
     *     define or gives twice, {@code client_max_window_bits} (not offered), or no
     *     {@code server_no_context_takeover} when it was asked for
     */
    public static PerMessageDeflate acceptResponse(String responseHeaderValue, DeflateSettings settings) throws WebSocketException {
        List<ExtensionList.Element> elements = ExtensionList.parse(responseHeaderValue == null ? List.of() : List.of(responseHeaderValue));
        if (elements.isEmpty()) return null;
        if (!settings.enabled()) throw refused("an extension in the response that was not offered");
        if (elements.size() > 1) throw refused("more than one extension in the response to one offer");
        ExtensionList.Element element = elements.getFirst();
        if (element.malformed()) throw refused("malformed Sec-WebSocket-Extensions in the response");
        if (!element.name().equalsIgnoreCase(DeflateParameters.EXTENSION)) throw refused("an extension in the response that was not offered");
        DeflateParameters response = DeflateParameters.parse(element.params());
        if (response == null) throw refused("invalid permessage-deflate parameters in the response");
        if (response.clientMaxWindowBits() != DeflateParameters.ABSENT) {
            throw refused("client_max_window_bits in the response but not in the offer");
        }
        if (settings.serverNoContextTakeover() && !response.serverNoContextTakeover()) {
            throw refused("server_no_context_takeover offered but not in the response");
        }
        return new PerMessageDeflate(settings, response.clientNoContextTakeover(), response.serverNoContextTakeover());
    }

    /** Whether this side's compressor restarts after every message (it agreed to no context takeover). */
    public boolean ownNoContextTakeover() {
        return ownNoContextTakeover;
    }

    /** Whether the peer agreed to compress every message without reference to the ones before. */
    public boolean peerNoContextTakeover() {
        return peerNoContextTakeover;
    }

    /** Frees the native memory of the compressor and the inflater; neither may be used after. */
    @Override
    public void close() {
        compressor.close();
        inflater.close();
    }

    int minSizeToCompress() {
        return minSizeToCompress;
    }

    MessageCompressor compressor() {
        return compressor;
    }

    MessageInflater inflater() {
        return inflater;
    }

    private static WebSocketException refused(String reason) {
        return new WebSocketException(CloseCodes.PROTOCOL_ERROR, reason);
    }
}
