package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.bench.lab.ServerFrameDecoder.Event;
import java.io.ByteArrayOutputStream;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The lab clients' frames: what {@link ClientFrame} sends, checked against RFC 6455's own examples
 * (section 5.7), and what {@link ServerFrameDecoder} makes of a server's frames, given whole and cut
 * at every byte.
 */
class WebSocketFramesTest {
    private static final byte[] HELLO = "Hello".getBytes(StandardCharsets.US_ASCII);

    @Test
    void aMaskedTextFrameIsRfc6455sExample() {
        byte[] key = {0x37, (byte) 0xfa, 0x21, 0x3d};

        assertThat(ClientFrame.masked(ClientFrame.TEXT, HELLO, key)).containsExactly(
                0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58);
    }

    @Test
    void longerPayloadsTakeTheTwoAndEightByteLengths() {
        byte[] key = {1, 2, 3, 4};
        byte[] medium = ClientFrame.masked(ClientFrame.BINARY, new byte[256], key);
        byte[] large = ClientFrame.masked(ClientFrame.BINARY, new byte[65_536], key);

        assertThat(Arrays.copyOf(medium, 4)).containsExactly(0x82, 0xFE, 0x01, 0x00);
        assertThat(medium).hasSize(2 + 2 + 4 + 256);
        assertThat(Arrays.copyOf(large, 10)).containsExactly(0x82, 0xFF, 0, 0, 0, 0, 0, 1, 0, 0);
        assertThat(large).hasSize(2 + 8 + 4 + 65_536);
        assertThat(ClientFrame.masked(ClientFrame.TEXT, new byte[125], key)[1] & 0xFF).isEqualTo(0x80 | 125);
        assertThat(ClientFrame.masked(ClientFrame.TEXT, new byte[126], key)[1] & 0xFF).isEqualTo(0x80 | 126);
    }

    @Test
    void aKeyIsDrawnForEachFrame() {
        SplittableRandom random = new SplittableRandom(1);
        byte[] one = ClientFrame.masked(ClientFrame.TEXT, HELLO, random);
        byte[] two = ClientFrame.masked(ClientFrame.TEXT, HELLO, random);

        assertThat(Arrays.copyOfRange(one, 2, 6)).isNotEqualTo(Arrays.copyOfRange(two, 2, 6));
    }

    @Test
    void readsAWholeUnmaskedMessageAndAFragmentedOneWithAPingBetweenAtEverySplit() throws ProtocolException {
        // RFC 6455 section 5.7: "Hello" unmasked; the same in two fragments; a ping "Hello" between them
        byte[] wire = concat(bytes(0x81, 0x05), HELLO,
                bytes(0x01, 0x03), Arrays.copyOf(HELLO, 3), bytes(0x89, 0x05), HELLO, bytes(0x80, 0x02), Arrays.copyOfRange(HELLO, 3, 5),
                bytes(0x82, 0x7E, 0x01, 0x00), new byte[256]);
        for (int split = 0; split <= wire.length; split++) {
            ServerFrameDecoder decoder = new ServerFrameDecoder(1 << 20, true);
            List<String> events = new ArrayList<>();
            for (ByteBuffer piece : List.of(ByteBuffer.wrap(wire, 0, split), ByteBuffer.wrap(wire, split, wire.length - split))) {
                for (Event e; (e = decoder.next(piece)) != Event.NEED_MORE; ) {
                    events.add(switch (e) {
                        case MESSAGE -> decoder.opcode() + ":" + decoder.length() + ":"
                                + (decoder.opcode() == ClientFrame.TEXT ? new String(decoder.payload(), StandardCharsets.US_ASCII) : "bytes");
                        case PING -> "ping:" + new String(decoder.controlPayload(), StandardCharsets.US_ASCII);
                        default -> e.name();
                    });
                }
            }
            assertThat(events).as("split at %d", split).containsExactly("1:5:Hello", "ping:Hello", "1:5:Hello", "2:256:bytes");
        }
    }

    @Test
    void aCloseCarriesItsCodeOr1005WithoutOne() throws ProtocolException {
        ServerFrameDecoder decoder = new ServerFrameDecoder(100, false);

        assertThat(decoder.next(ByteBuffer.wrap(bytes(0x88, 0x02, 0x03, 0xE9)))).isEqualTo(Event.CLOSE);
        assertThat(decoder.closeCode()).isEqualTo(1001);
        assertThat(decoder.next(ByteBuffer.wrap(bytes(0x88, 0x00)))).isEqualTo(Event.CLOSE);
        assertThat(decoder.closeCode()).isEqualTo(1005);
    }

    @Test
    void aPongIsDroppedAndAnEmptyMessageIsAMessage() throws ProtocolException {
        ServerFrameDecoder decoder = new ServerFrameDecoder(100, false);

        assertThat(decoder.next(ByteBuffer.wrap(bytes(0x8A, 0x01, 0x41, 0x81, 0x00)))).isEqualTo(Event.MESSAGE);
        assertThat(decoder.length()).isZero();
    }

    @Test
    void refusesWhatAServerMustNotSend() {
        assertRefused("a masked frame", 0x81, 0x81, 1, 2, 3, 4, 0x41);
        assertRefused("reserved bits", 0xC1, 0x01, 0x41);
        assertRefused("a continuation frame outside a message", 0x80, 0x01, 0x41);
        assertRefused("a new message before the last one ended", 0x01, 0x01, 0x41, 0x81, 0x01, 0x41);
        assertRefused("a fragmented control frame", 0x09, 0x00);
        assertRefused("a control frame of 126 bytes", 0x89, 0x7E, 0x00, 0x7E);
        assertRefused("unknown data opcode 3", 0x83, 0x00);
        assertRefused("a message of more than 4 bytes", 0x01, 0x03, 0x41, 0x41, 0x41, 0x80, 0x02, 0x41, 0x41);
    }

    private static void assertRefused(String why, int... wire) {
        ServerFrameDecoder decoder = new ServerFrameDecoder(4, false);
        ByteBuffer in = ByteBuffer.wrap(bytes(wire));
        assertThatThrownBy(() -> {
            while (decoder.next(in) != Event.NEED_MORE) {
                // on to the frame that breaks the protocol
            }
        }).isInstanceOf(ProtocolException.class).hasMessageContaining(why);
    }

    private static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) bytes[i] = (byte) values[i];
        return bytes;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] part : parts) all.writeBytes(part);
        return all.toByteArray();
    }
}
