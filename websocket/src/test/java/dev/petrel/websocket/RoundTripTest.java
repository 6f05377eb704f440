package dev.petrel.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.websocket.DecoderFeeding.Event;
import dev.petrel.websocket.DecoderFeeding.Outcome;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Messages written by one side's {@link MessageEncoder} and read by the other's
 * {@link MessageDecoder} (a client's masked frames by a server, a server's by a client), whole or
 * fragmented, with pings between fragments, without permessage-deflate and with it (context
 * takeover on and off), the wire cut into chunks of any size: what is read is what was sent.
 */
class RoundTripTest {
    /** How the connection is set up. */
    enum Compression { NONE, CONTEXT_TAKEOVER, NO_CONTEXT_TAKEOVER, EVERY_MESSAGE }

    /** One message: text or bytes, sent whole (fragment 0) or in fragments of that many bytes, with a ping before each continuation. */
    record Message(String text, byte[] binary, int fragment, boolean pings) {
        boolean isText() {
            return text != null;
        }

        byte[] bytes() {
            return isText() ? text.getBytes(StandardCharsets.UTF_8) : binary;
        }

        @Override
        public String toString() {
            return (isText() ? "text(" + text.length() + " chars)" : "binary(" + binary.length + ")") + " by " + fragment + (pings ? " with pings" : "");
        }
    }

    @Provide
    Arbitrary<Message> message() {
        Arbitrary<String> texts = Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(300),
                Arbitraries.strings().withCharRange('a', 'e').ofMaxLength(3000),
                Arbitraries.strings().withChars("aé€😀".toCharArray()).ofMaxLength(500));
        Arbitrary<byte[]> binaries = Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(300),
                Arbitraries.bytes().between((byte) 0, (byte) 3).array(byte[].class).ofMaxSize(70_000));
        Arbitrary<Message> text = Combinators.combine(texts, fragments(), Arbitraries.of(true, false))
                .as((t, f, p) -> new Message(t, null, f, p));
        Arbitrary<Message> binary = Combinators.combine(binaries, fragments(), Arbitraries.of(true, false))
                .as((b, f, p) -> new Message(null, b, f, p));
        return Arbitraries.oneOf(text, binary);
    }

    private static Arbitrary<Integer> fragments() {
        return Arbitraries.oneOf(Arbitraries.just(0), Arbitraries.integers().between(1, 40), Arbitraries.integers().between(41, 20_000));
    }

    @Property
    void whatIsSentIsWhatIsReceived(@ForAll @Size(max = 6) List<@From("message") Message> messages,
                                    @ForAll Compression compression, @ForAll boolean fromClient,
                                    @ForAll @IntRange(min = 1, max = 5000) int chunk, @ForAll long seed) throws WebSocketException {
        Connection connection = Connection.open(compression);
        try {
            Random keys = new Random(seed);
            MessageEncoder encoder = fromClient ? new MessageEncoder(true, connection.client, keys::nextInt) : new MessageEncoder(false, connection.server);
            MessageDecoder decoder = new MessageDecoder(WebSocketLimits.DEFAULT, !fromClient, fromClient ? connection.server : connection.client);
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            List<Event> expected = new ArrayList<>();
            for (Message message : messages) send(encoder, message, wire, expected);
            byte[] bytes = wire.toByteArray();
            List<byte[]> pieces = new ArrayList<>();
            for (int at = 0; at < bytes.length; at += chunk) pieces.add(Arrays.copyOfRange(bytes, at, Math.min(bytes.length, at + chunk)));
            Outcome outcome = DecoderFeeding.feed(decoder, pieces);
            assertThat(outcome.failure()).as("failure after %s", outcome.events().size()).isZero();
            assertThat(outcome.events()).isEqualTo(expected);
        } finally {
            connection.close();
        }
    }

    /** Writes {@code message} as the encoder does and notes what the decoder should report. */
    private static void send(MessageEncoder encoder, Message message, ByteArrayOutputStream wire, List<Event> expected) {
        byte[] bytes = message.bytes();
        if (message.fragment() == 0) {
            write(wire, message.isText() ? encoder.text(message.text()) : encoder.binary(ByteBuffer.wrap(bytes)));
        } else {
            int size = Math.max(message.fragment(), bytes.length / 200); // at most some 200 fragments
            int at = 0;
            do {
                int n = Math.min(size, bytes.length - at);
                boolean last = at + n == bytes.length;
                Opcode opcode = at == 0 ? (message.isText() ? Opcode.TEXT : Opcode.BINARY) : Opcode.CONTINUATION;
                if (at > 0 && message.pings()) {
                    byte[] ping = {(byte) at};
                    write(wire, encoder.ping(ByteBuffer.wrap(ping)));
                    expected.add(Event.ping(ping));
                }
                write(wire, encoder.frame(opcode, last, ByteBuffer.wrap(bytes, at, n)));
                at += n;
            } while (at < bytes.length);
        }
        // a lone surrogate goes out as '?', as the JDK encodes it
        expected.add(message.isText() ? Event.text(new String(bytes, StandardCharsets.UTF_8)) : Event.binary(bytes));
    }

    private static void write(ByteArrayOutputStream wire, ByteBuffer frame) {
        byte[] b = new byte[frame.remaining()];
        frame.get(b);
        wire.writeBytes(b);
    }

    /** Both ends' permessage-deflate as negotiated, or none. */
    record Connection(PerMessageDeflate server, PerMessageDeflate client) {
        static Connection open(Compression compression) throws WebSocketException {
            if (compression == Compression.NONE) return new Connection(null, null);
            DeflateSettings settings = switch (compression) {
                case NO_CONTEXT_TAKEOVER -> DeflateSettings.DEFAULT.withServerNoContextTakeover(true);
                case EVERY_MESSAGE -> DeflateSettings.DEFAULT.withMinSizeToCompress(0).withCompressionLevel(1);
                default -> DeflateSettings.DEFAULT;
            };
            String offer = compression == Compression.NO_CONTEXT_TAKEOVER
                    ? "permessage-deflate; server_no_context_takeover; client_no_context_takeover"
                    : PerMessageDeflate.clientOffer(settings);
            PerMessageDeflate.Negotiated negotiated = PerMessageDeflate.negotiate(List.of(offer), settings);
            PerMessageDeflate client = PerMessageDeflate.acceptResponse(negotiated.responseHeaderValue(), settings);
            assertThat(client.ownNoContextTakeover()).isEqualTo(compression == Compression.NO_CONTEXT_TAKEOVER);
            return new Connection(negotiated.serverSide(), client);
        }

        void close() {
            if (server != null) server.close();
            if (client != null) client.close();
        }
    }
}
