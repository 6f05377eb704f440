package dev.petrel.websocket;

import static dev.petrel.websocket.DecoderFeeding.assertDecodes;
import static dev.petrel.websocket.DecoderFeeding.assertFails;
import static dev.petrel.websocket.WireFrames.BINARY;
import static dev.petrel.websocket.WireFrames.CONTINUATION;
import static dev.petrel.websocket.WireFrames.FIN;
import static dev.petrel.websocket.WireFrames.KEY;
import static dev.petrel.websocket.WireFrames.PING;
import static dev.petrel.websocket.WireFrames.RSV1;
import static dev.petrel.websocket.WireFrames.TEXT;
import static dev.petrel.websocket.WireFrames.concat;
import static dev.petrel.websocket.WireFrames.hex;
import static dev.petrel.websocket.WireFrames.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.testkit.Allocations;
import dev.petrel.websocket.DecoderFeeding.Event;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Messages compressed with permessage-deflate: RFC 7692 section 7.2.3's examples decoded (every
 * input fed whole, split at every byte and byte by byte) and produced, context takeover on and
 * off, and what a hostile peer may send: corrupt streams and bombs.
 */
class CompressionTest {
    private static final String HELLO_BLOCK = "f2 48 cd c9 c9 07 00";

    private static PerMessageDeflate serverSide(String offer, DeflateSettings settings) {
        return PerMessageDeflate.negotiate(List.of(offer), settings).serverSide();
    }

    private static Supplier<MessageDecoder> serverDecoder(WebSocketLimits limits) {
        return () -> new MessageDecoder(limits, false, serverSide("permessage-deflate", DeflateSettings.DEFAULT));
    }

    private static final Supplier<MessageDecoder> SERVER = serverDecoder(WebSocketLimits.DEFAULT);

    private static byte[] client(int first, String hexPayload) {
        return WireFrames.client(first, hex(hexPayload));
    }

    private static String hexOf(ByteBuffer frame) {
        byte[] b = new byte[frame.remaining()];
        frame.get(b);
        return HexFormat.of().formatHex(b);
    }

    // --- decoding RFC 7692 section 7.2.3's examples

    @Test
    void helloInOneCompressedBlock_section7_2_3_1() {
        assertDecodes(client(FIN | RSV1 | TEXT, HELLO_BLOCK), SERVER, Event.text("Hello"));
        // the same message in two fragments, RSV1 on the first only
        assertDecodes(concat(client(RSV1 | TEXT, "f2 48 cd"), client(FIN | CONTINUATION, "c9 c9 07 00")), SERVER, Event.text("Hello"));
    }

    @Test
    void theSecondHelloRefersToTheFirst_section7_2_3_2() {
        assertDecodes(concat(client(FIN | RSV1 | TEXT, HELLO_BLOCK), client(FIN | RSV1 | TEXT, "f2 00 11 00 00")), SERVER,
                Event.text("Hello"), Event.text("Hello"));
        // without context takeover the second is compressed alone, the same 7 bytes
        assertDecodes(concat(client(FIN | RSV1 | TEXT, HELLO_BLOCK), client(FIN | RSV1 | TEXT, HELLO_BLOCK)), SERVER,
                Event.text("Hello"), Event.text("Hello"));
    }

    @Test
    void helloInAStoredBlock_section7_2_3_3() {
        assertDecodes(client(FIN | RSV1 | TEXT, "00 05 00 fa ff 48 65 6c 6c 6f 00"), SERVER, Event.text("Hello"));
    }

    @Test
    void helloInAFinalBlock_section7_2_3_4() {
        // BFINAL ends the stream: the next message starts a new one
        assertDecodes(concat(client(FIN | RSV1 | TEXT, "f3 48 cd c9 c9 07 00 00"), client(FIN | RSV1 | TEXT, "f3 48 cd c9 c9 07 00 00"),
                client(FIN | RSV1 | BINARY, HELLO_BLOCK)), SERVER, Event.text("Hello"), Event.text("Hello"), Event.binary(utf8("Hello")));
    }

    @Test
    void helloInTwoBlocks_section7_2_3_5() {
        assertDecodes(client(FIN | RSV1 | TEXT, "f2 48 05 00 00 00 ff ff ca c9 c9 07 00"), SERVER, Event.text("Hello"));
    }

    @Test
    void anEmptyMessageAndUncompressedOnesBetweenCompressedOnes() {
        assertDecodes(concat(client(FIN | RSV1 | TEXT, "00"), client(FIN | TEXT, "48 69"), client(FIN | RSV1 | BINARY, HELLO_BLOCK),
                client(FIN | BINARY, "")), SERVER, Event.text(""), Event.text("Hi"), Event.binary(utf8("Hello")), Event.binary(new byte[0]));
    }

    @Test
    void controlFramesBetweenCompressedFragments() {
        assertDecodes(concat(client(RSV1 | TEXT, "f2 48"), client(FIN | PING, "01"), client(CONTINUATION, "cd c9"), client(FIN | CONTINUATION, "c9 07 00")),
                SERVER, Event.ping(new byte[] {1}), Event.text("Hello"));
    }

    // --- encoding

    @Test
    void helloCompressedTwiceWithContextTakeover_section7_2_3_2() {
        PerMessageDeflate deflate = serverSide("permessage-deflate", DeflateSettings.DEFAULT.withMinSizeToCompress(0));
        MessageEncoder encoder = new MessageEncoder(false, deflate);
        assertThat(hexOf(encoder.text("Hello"))).isEqualTo("c107" + HELLO_BLOCK.replace(" ", ""));
        assertThat(hexOf(encoder.text("Hello"))).isEqualTo("c105f200110000");
        deflate.close();
    }

    @Test
    void helloCompressedTwiceWithoutContextTakeover_section7_2_3_1() {
        for (PerMessageDeflate deflate : List.of(
                serverSide("permessage-deflate; server_no_context_takeover", DeflateSettings.DEFAULT.withMinSizeToCompress(0)),
                serverSide("permessage-deflate", DeflateSettings.DEFAULT.withMinSizeToCompress(0).withServerNoContextTakeover(true)))) {
            MessageEncoder encoder = new MessageEncoder(false, deflate);
            assertThat(hexOf(encoder.text("Hello"))).isEqualTo("c107" + HELLO_BLOCK.replace(" ", ""));
            assertThat(hexOf(encoder.binary(ByteBuffer.wrap(utf8("Hello"))))).isEqualTo("c207" + HELLO_BLOCK.replace(" ", ""));
            deflate.close();
        }
    }

    @Test
    void anEmptyMessageCompressesToOneByteEvenWhenTheFlushBeforeLeftNothingToFlush() {
        PerMessageDeflate deflate = serverSide("permessage-deflate", DeflateSettings.DEFAULT.withMinSizeToCompress(0));
        MessageEncoder encoder = new MessageEncoder(false, deflate);
        assertThat(hexOf(encoder.text(""))).isEqualTo("c10100");
        // zlib writes nothing for a second flush without input: the encoder ends the message itself
        assertThat(hexOf(encoder.text(""))).isEqualTo("c10100");
        assertThat(hexOf(encoder.binary(ByteBuffer.allocate(0)))).isEqualTo("c20100");
        encoder.frame(Opcode.TEXT, false, ByteBuffer.wrap(utf8("Hello")));
        assertThat(hexOf(encoder.frame(Opcode.CONTINUATION, true, ByteBuffer.allocate(0)))).as("an empty last fragment").isEqualTo("800100");
        deflate.close();
    }

    @Test
    void smallMessagesAndControlFramesGoOutUncompressed() {
        PerMessageDeflate deflate = serverSide("permessage-deflate", DeflateSettings.DEFAULT.withMinSizeToCompress(64));
        MessageEncoder encoder = new MessageEncoder(false, deflate);
        assertThat(hexOf(encoder.text("Hello"))).as("below minSizeToCompress").isEqualTo("810548656c6c6f");
        assertThat(hexOf(encoder.ping(ByteBuffer.wrap(new byte[100])))).startsWith("8964");
        assertThat(hexOf(encoder.close(1000, "x".repeat(100)))).startsWith("8866");
        assertThat(hexOf(encoder.text("x".repeat(64)))).as("at minSizeToCompress").startsWith("c1");
        deflate.close();
    }

    @Test
    void aFragmentedMessageIsCompressedAsOneStream() {
        PerMessageDeflate server = serverSide("permessage-deflate", DeflateSettings.DEFAULT);
        MessageEncoder encoder = new MessageEncoder(false, server);
        ByteBuffer first = encoder.frame(Opcode.TEXT, false, ByteBuffer.wrap(utf8("Hel")));
        ByteBuffer ping = encoder.ping(ByteBuffer.allocate(0));
        ByteBuffer last = encoder.frame(Opcode.CONTINUATION, true, ByteBuffer.wrap(utf8("lo")));
        assertThat(first.get(0)).as("RSV1 on the first fragment, no FIN").isEqualTo((byte) 0x41);
        assertThat(last.get(0)).as("no RSV1 on the continuation").isEqualTo((byte) 0x80);
        byte[] wire = concat(bytesOf(first), bytesOf(ping), bytesOf(last));
        PerMessageDeflate clientSide = clientSide("permessage-deflate");
        assertDecodes(wire, () -> new MessageDecoder(WebSocketLimits.DEFAULT, true, clientSide("permessage-deflate")),
                Event.ping(new byte[0]), Event.text("Hello"));
        clientSide.close();
        server.close();
    }

    private static PerMessageDeflate clientSide(String response) {
        try {
            return PerMessageDeflate.acceptResponse(response, DeflateSettings.DEFAULT);
        } catch (WebSocketException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] bytesOf(ByteBuffer frame) {
        byte[] b = new byte[frame.remaining()];
        frame.get(b);
        return b;
    }

    // --- hostile peers

    @Test
    void aCorruptStreamFailsWith1007() {
        // BTYPE 11 is reserved: "invalid block type"
        assertFails(client(FIN | RSV1 | TEXT, "ff ff ff"), SERVER, CloseCodes.INVALID_PAYLOAD);
        assertFails(client(FIN | RSV1 | BINARY, "07"), SERVER, CloseCodes.INVALID_PAYLOAD);
        // a stored block whose length and its complement disagree
        assertFails(client(FIN | RSV1 | BINARY, "00 05 00 00 00 48 65 6c 6c 6f"), SERVER, CloseCodes.INVALID_PAYLOAD);
    }

    @Test
    void whatFollowsTheFinalBlockOfAMessageIsIgnored() {
        // as zlib does: section 7.2.3.4's payload itself ends with a byte past its final block
        assertDecodes(concat(client(FIN | RSV1 | TEXT, "f3 48 cd c9 c9 07 00 41 42"), client(RSV1 | TEXT, "f3 48 cd c9 c9 07 00"),
                client(FIN | CONTINUATION, "ff ff")), SERVER, Event.text("Hello"), Event.text("Hello"));
    }

    @Test
    void aMessageInflatingToExactlyTheLimitPassesAndOneByteMoreFails() {
        WebSocketLimits limits = new WebSocketLimits(1 << 20, 1000);
        for (int size : new int[] {999, 1000, 1001}) {
            byte[] frame = compressedClientFrame(new byte[size]);
            if (size <= 1000) {
                assertDecodes(frame, serverDecoder(limits), Event.binary(new byte[size]));
            } else {
                assertFails(frame, serverDecoder(limits), CloseCodes.MESSAGE_TOO_BIG);
            }
        }
    }

    @Test
    void aBombIsStoppedAtTheLimitWithoutInflatingTheRest() throws Exception {
        byte[] bomb = compressedClientFrame(new byte[16 << 20]);
        assertThat(bomb.length).as("16 MiB of zeros compress to about 16 KiB").isLessThan(20_000);
        WebSocketLimits limits = new WebSocketLimits(1 << 20, 64 * 1024);
        MessageDecoder decoder = serverDecoder(limits).get();
        ByteBuffer in = ByteBuffer.wrap(bomb);
        long before = Allocations.currentThread();
        assertThatThrownBy(() -> decoder.decode(in, new DecoderFeeding.Recorder()))
                .isInstanceOfSatisfying(WebSocketException.class, e -> assertThat(e.closeCode()).isEqualTo(CloseCodes.MESSAGE_TOO_BIG));
        long allocated = Allocations.currentThread() - before;
        // the message buffer doubling from 256 bytes to 64 KiB + 1 (some 192 KiB in all), an 8 KiB
        // chunk, the inflater: a bound set by the limit, nowhere near the bomb's 16 MiB
        assertThat(allocated).as("bytes allocated decoding the bomb").isLessThan(384 * 1024);
        // fed in pieces too, and as text
        assertFails(bomb, serverDecoder(limits), CloseCodes.MESSAGE_TOO_BIG);
        byte[] textBomb = bomb.clone();
        textBomb[0] = (byte) (FIN | RSV1 | TEXT);
        assertFails(textBomb, serverDecoder(limits), CloseCodes.MESSAGE_TOO_BIG);
    }

    // --- the sizes a session counts

    /** A message's size is its payload as the handler sees it: after inflating, before compressing, text in UTF-8. */
    @Test
    void theLastMessageSizeIsThePayloadAfterInflatingAndBeforeCompressing() throws Exception {
        MessageDecoder decoder = SERVER.get();
        List<Integer> sizes = new ArrayList<>();
        MessageSink sink = new DecoderFeeding.Recorder() {
            @Override
            public void text(String message) {
                sizes.add(decoder.lastMessageSize());
            }

            @Override
            public void binary(byte[] message) {
                sizes.add(decoder.lastMessageSize());
            }
        };
        String text = "\u00e9\u20ac\ud83d\ude00"; // 4 chars, 9 bytes of UTF-8
        byte[] frames = concat(client(FIN | RSV1 | TEXT, HELLO_BLOCK), WireFrames.client(FIN | TEXT, utf8(text)),
                client(FIN | RSV1 | BINARY, HELLO_BLOCK), WireFrames.client(TEXT, utf8("frag")),
                WireFrames.client(FIN | CONTINUATION, utf8("mented")), WireFrames.client(FIN | PING, utf8("ping")));
        decoder.decode(ByteBuffer.wrap(frames), sink);
        assertThat(sizes).containsExactly(5, 9, 5, 10);

        PerMessageDeflate deflate = serverSide("permessage-deflate", DeflateSettings.DEFAULT.withMinSizeToCompress(0));
        MessageEncoder encoder = new MessageEncoder(false, deflate);
        encoder.text(text);
        assertThat(encoder.lastMessageSize()).isEqualTo(9);
        assertThat(encoder.binary(ByteBuffer.wrap(new byte[1000])).remaining()).isLessThan(100);
        assertThat(encoder.lastMessageSize()).isEqualTo(1000);
        encoder.ping(ByteBuffer.wrap(utf8("ping")));
        assertThat(encoder.lastMessageSize()).as("a control frame is no message").isEqualTo(1000);
        deflate.close();
    }

    /** A client's frame holding {@code payload} compressed, masked with {@link WireFrames#KEY}. */
    private static byte[] compressedClientFrame(byte[] payload) {
        PerMessageDeflate deflate = clientSide("permessage-deflate");
        MessageEncoder encoder = new MessageEncoder(true, deflate, () -> KEY);
        byte[] frame = bytesOf(encoder.binary(ByteBuffer.wrap(payload)));
        deflate.close();
        return frame;
    }
}
