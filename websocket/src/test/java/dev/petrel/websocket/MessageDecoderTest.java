package dev.petrel.websocket;

import static dev.petrel.websocket.DecoderFeeding.assertDecodes;
import static dev.petrel.websocket.DecoderFeeding.assertFails;
import static dev.petrel.websocket.DecoderFeeding.assertSameHoweverFed;
import static dev.petrel.websocket.DecoderFeeding.clientDecoder;
import static dev.petrel.websocket.DecoderFeeding.serverDecoder;
import static dev.petrel.websocket.WireFrames.BINARY;
import static dev.petrel.websocket.WireFrames.CLOSE;
import static dev.petrel.websocket.WireFrames.CONTINUATION;
import static dev.petrel.websocket.WireFrames.FIN;
import static dev.petrel.websocket.WireFrames.PING;
import static dev.petrel.websocket.WireFrames.PONG;
import static dev.petrel.websocket.WireFrames.RSV1;
import static dev.petrel.websocket.WireFrames.RSV2;
import static dev.petrel.websocket.WireFrames.RSV3;
import static dev.petrel.websocket.WireFrames.TEXT;
import static dev.petrel.websocket.WireFrames.bytes;
import static dev.petrel.websocket.WireFrames.closeBody;
import static dev.petrel.websocket.WireFrames.concat;
import static dev.petrel.websocket.WireFrames.hex;
import static dev.petrel.websocket.WireFrames.header;
import static dev.petrel.websocket.WireFrames.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.testkit.Allocations;
import dev.petrel.websocket.DecoderFeeding.Event;
import dev.petrel.websocket.DecoderFeeding.Outcome;
import dev.petrel.websocket.WireFrames.LengthForm;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link MessageDecoder} against RFC 6455, every input fed whole, split at every byte, byte by
 * byte and from a direct buffer ({@link DecoderFeeding}).
 */
class MessageDecoderTest {
    private static final Supplier<MessageDecoder> WITH_DEFLATE = () ->
            new MessageDecoder(WebSocketLimits.DEFAULT, false, PerMessageDeflate.negotiate(List.of("permessage-deflate"), DeflateSettings.DEFAULT).serverSide());

    private static byte[] client(int first, byte[] payload) {
        return WireFrames.client(first, payload);
    }

    private static byte[] client(int first, String text) {
        return WireFrames.client(first, utf8(text));
    }

    // --- RFC 6455 section 5.7's examples

    @Test
    void maskedHello_section5_7() {
        assertDecodes(hex("81 85 37 fa 21 3d 7f 9f 4d 51 58"), serverDecoder(), Event.text("Hello"));
    }

    @Test
    void unmaskedHello_section5_7() {
        assertDecodes(hex("81 05 48 65 6c 6c 6f"), clientDecoder(), Event.text("Hello"));
    }

    @Test
    void fragmentedUnmaskedHello_section5_7() {
        assertDecodes(hex("01 03 48 65 6c 80 02 6c 6f"), clientDecoder(), Event.text("Hello"));
    }

    @Test
    void unmaskedPingAndMaskedPong_section5_7() {
        assertDecodes(hex("89 05 48 65 6c 6c 6f"), clientDecoder(), Event.ping(utf8("Hello")));
        assertDecodes(hex("8a 85 37 fa 21 3d 7f 9f 4d 51 58"), serverDecoder(), Event.pong(utf8("Hello")));
    }

    @Test
    void binaryWith16And64BitLengths_section5_7() {
        byte[] b256 = new byte[256];
        Arrays.fill(b256, (byte) 7);
        assertDecodes(concat(hex("82 7e 01 00"), b256), clientDecoder(), Event.binary(b256));
        byte[] b64k = new byte[65536];
        for (int i = 0; i < b64k.length; i++) b64k[i] = (byte) (i * 31);
        assertDecodes(concat(hex("82 7f 00 00 00 00 00 01 00 00"), b64k), clientDecoder(), Event.binary(b64k));
    }

    // --- lengths and masking

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 7, 8, 9, 124, 125, 126, 127, 1000, 65535, 65536, 70001})
    void payloadsOfEveryLengthFormAreUnmasked(int length) {
        byte[] payload = new byte[length];
        for (int i = 0; i < length; i++) payload[i] = (byte) (i ^ (i >>> 8));
        assertDecodes(concat(client(FIN | BINARY, payload), client(FIN | PING, bytes(1))), serverDecoder(),
                Event.binary(payload), Event.ping(bytes(1)));
    }

    @Test
    void lengthsNotInTheirShortestFormAreAccepted() {
        assertDecodes(WireFrames.frame(FIN | TEXT, utf8("Hi"), true, LengthForm.SIXTEEN), serverDecoder(), Event.text("Hi"));
        assertDecodes(WireFrames.frame(FIN | TEXT, utf8("Hi"), true, LengthForm.SIXTY_FOUR), serverDecoder(), Event.text("Hi"));
    }

    @Test
    void aServerRefusesUnmaskedFramesAndAClientMaskedOnes_section5_1() {
        assertFails(WireFrames.server(FIN | TEXT, utf8("Hello")), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
        assertFails(WireFrames.client(FIN | TEXT, utf8("Hello")), clientDecoder(), CloseCodes.PROTOCOL_ERROR);
        assertFails(WireFrames.server(FIN | PING, new byte[0]), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
    }

    @Test
    void a64BitLengthWithItsTopBitSetIsRefused_section5_2() {
        assertFails(hex("82 ff 80 00 00 00 00 00 00 01 37 fa 21 3d"), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
        assertFails(hex("82 7f ff ff ff ff ff ff ff ff"), clientDecoder(), CloseCodes.PROTOCOL_ERROR);
    }

    // --- opcodes and reserved bits

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF})
    void reservedOpcodesAreRefused(int opcode) {
        assertFails(client(FIN | opcode, utf8("x")), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
        assertFails(concat(client(FIN | TEXT, "a"), client(FIN | opcode, new byte[0])), serverDecoder(), CloseCodes.PROTOCOL_ERROR,
                Event.text("a"));
    }

    @ParameterizedTest
    @ValueSource(ints = {RSV1, RSV2, RSV3, RSV1 | RSV2 | RSV3})
    void reservedBitsWithoutAnExtensionAreRefused(int rsv) {
        assertFails(client(FIN | rsv | TEXT, "Hello"), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
        assertFails(client(FIN | rsv | PING, "Hello"), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
    }

    @Test
    void withDeflateRsv1IsRefusedOnContinuationAndControlFramesAndRsv2AndRsv3Everywhere_rfc7692_section6_1() {
        assertFails(concat(client(TEXT, "He"), client(FIN | RSV1 | CONTINUATION, "llo")), WITH_DEFLATE, CloseCodes.PROTOCOL_ERROR);
        assertFails(client(FIN | RSV1 | PING, "x"), WITH_DEFLATE, CloseCodes.PROTOCOL_ERROR);
        assertFails(client(FIN | RSV1 | CLOSE, closeBody(1000, new byte[0])), WITH_DEFLATE, CloseCodes.PROTOCOL_ERROR);
        assertFails(client(FIN | RSV2 | TEXT, "x"), WITH_DEFLATE, CloseCodes.PROTOCOL_ERROR);
        assertFails(client(FIN | RSV3 | BINARY, "x"), WITH_DEFLATE, CloseCodes.PROTOCOL_ERROR);
        // the same without RSV1 decodes: an uncompressed message on a connection with the extension
        assertDecodes(concat(client(TEXT, "He"), client(FIN | CONTINUATION, "llo")), WITH_DEFLATE, Event.text("Hello"));
    }

    // --- control frames

    @Test
    void controlFramesLongerThan125BytesAreRefused_section5_5() {
        assertDecodes(client(FIN | PING, new byte[125]), serverDecoder(), Event.ping(new byte[125]));
        assertFails(client(FIN | PING, new byte[126]), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
        assertFails(client(FIN | PONG, new byte[126]), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
        assertFails(client(FIN | CLOSE, new byte[126]), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
        // refused on the header alone, before any payload
        assertFails(header(FIN | PING, true, 65536, LengthForm.SHORTEST), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
    }

    @Test
    void fragmentedControlFramesAreRefused_section5_5() {
        assertFails(client(PING, "x"), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
        assertFails(client(PONG, "x"), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
        assertFails(client(CLOSE, closeBody(1000, new byte[0])), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
    }

    @Test
    void controlFramesComeBetweenFragmentsAsTheyArrive_section5_4() {
        byte[] input = concat(client(TEXT, "fragment1 "), client(FIN | PING, "p1"), client(CONTINUATION, "fragment2 "),
                client(FIN | PONG, "p2"), client(FIN | PING, new byte[0]), client(FIN | CONTINUATION, "fragment3"),
                client(FIN | BINARY, bytes(1, 2, 3)));
        assertDecodes(input, serverDecoder(), Event.ping(utf8("p1")), Event.pong(utf8("p2")), Event.ping(new byte[0]),
                Event.text("fragment1 fragment2 fragment3"), Event.binary(bytes(1, 2, 3)));
    }

    // --- fragmentation

    @Test
    void aContinuationWithNoMessageToContinueIsRefused_section5_4() {
        assertFails(client(FIN | CONTINUATION, "x"), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
        assertFails(concat(client(FIN | TEXT, "a"), client(CONTINUATION, "x")), serverDecoder(), CloseCodes.PROTOCOL_ERROR, Event.text("a"));
    }

    @Test
    void aNewMessageBeforeTheFragmentedOneEndedIsRefused_section5_4() {
        assertFails(concat(client(TEXT, "a"), client(FIN | TEXT, "b")), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
        assertFails(concat(client(BINARY, "a"), client(FIN | BINARY, "b")), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
        assertFails(concat(client(BINARY, "a"), client(FIN | PING, ""), client(TEXT, "b")), serverDecoder(), CloseCodes.PROTOCOL_ERROR,
                Event.ping(new byte[0]));
    }

    @Test
    void emptyFramesAndFragmentsMakeMessages() {
        assertDecodes(concat(client(FIN | TEXT, ""), client(FIN | BINARY, new byte[0]), client(TEXT, ""), client(CONTINUATION, ""),
                client(FIN | CONTINUATION, "")), serverDecoder(), Event.text(""), Event.binary(new byte[0]), Event.text(""));
    }

    @Test
    void manyFragmentsMakeOneBinaryMessage() {
        byte[] expected = new byte[3000];
        byte[][] frames = new byte[31][];
        for (int i = 0; i < 30; i++) {
            byte[] piece = new byte[100];
            Arrays.fill(piece, (byte) i);
            System.arraycopy(piece, 0, expected, 100 * i, 100);
            frames[i] = client(i == 0 ? BINARY : CONTINUATION, piece);
        }
        frames[30] = client(FIN | CONTINUATION, new byte[0]);
        assertDecodes(concat(frames), serverDecoder(), Event.binary(expected));
    }

    // --- limits

    @Test
    void aFrameLargerThanTheLimitIsRefusedOnItsHeader() {
        WebSocketLimits limits = new WebSocketLimits(1000, 1 << 20);
        assertDecodes(client(FIN | BINARY, new byte[1000]), serverDecoder(limits), Event.binary(new byte[1000]));
        assertFails(header(FIN | BINARY, true, 1001, LengthForm.SHORTEST), serverDecoder(limits), CloseCodes.MESSAGE_TOO_BIG);
        assertFails(header(FIN | BINARY, true, Long.MAX_VALUE, LengthForm.SHORTEST), serverDecoder(), CloseCodes.MESSAGE_TOO_BIG);
    }

    @Test
    void aMessageLargerThanTheLimitIsRefusedOnTheHeaderOfTheFrameThatWouldPassIt() {
        WebSocketLimits limits = new WebSocketLimits(1000, 250);
        assertDecodes(concat(client(TEXT, "a".repeat(150)), client(FIN | CONTINUATION, "b".repeat(100))), serverDecoder(limits),
                Event.text("a".repeat(150) + "b".repeat(100)));
        assertFails(concat(client(TEXT, "a".repeat(150)), header(FIN | CONTINUATION, true, 101, LengthForm.SHORTEST)),
                serverDecoder(limits), CloseCodes.MESSAGE_TOO_BIG);
        assertFails(header(FIN | BINARY, true, 251, LengthForm.SHORTEST), serverDecoder(limits), CloseCodes.MESSAGE_TOO_BIG);
    }

    // --- text

    @Test
    void textThatIsNotUtf8IsRefused_section8_1() {
        assertFails(client(FIN | TEXT, hex("ce ba e1 bd b9 cf 83 ce bc ce b5 ed a0 80 65 64 69 74 65 64")), serverDecoder(), CloseCodes.INVALID_PAYLOAD);
        assertFails(client(FIN | TEXT, hex("c0 80")), serverDecoder(), CloseCodes.INVALID_PAYLOAD);
        assertFails(concat(client(TEXT, "ok"), client(FIN | CONTINUATION, hex("80"))), serverDecoder(), CloseCodes.INVALID_PAYLOAD);
    }

    @Test
    void aCharacterCutBetweenFragmentsIsFineButAMessageEndingInsideOneIsNot() {
        // € is e2 82 ac, cut after each of its bytes
        assertDecodes(concat(client(TEXT, hex("41 e2")), client(CONTINUATION, hex("82")), client(FIN | CONTINUATION, hex("ac 42"))),
                serverDecoder(), Event.text("A€B"));
        assertFails(concat(client(TEXT, hex("41 e2")), client(FIN | CONTINUATION, hex("82"))), serverDecoder(), CloseCodes.INVALID_PAYLOAD);
        assertFails(client(FIN | TEXT, hex("41 f0 9f 98")), serverDecoder(), CloseCodes.INVALID_PAYLOAD);
    }

    /** Autobahn 6.4.1 and 6.4.2: valid, then the fragment that makes it invalid, then (never sent) the rest. */
    @Test
    void invalidUtf8FailsOnTheFragmentThatBreaksIt_autobahn6_4_1() {
        byte[] part1 = hex("ce ba e1 bd b9 cf 83 ce bc ce b5");
        byte[] part2 = hex("f4 90 80 80");
        assertDecodes(client(TEXT, part1), serverDecoder()); // no failure yet: the message is valid so far
        assertFails(concat(client(TEXT, part1), client(CONTINUATION, part2)), serverDecoder(), CloseCodes.INVALID_PAYLOAD);
        // 6.4.2: the bad byte alone in its fragment
        byte[] all = concat(part1, part2);
        assertFails(concat(client(TEXT, Arrays.copyOf(all, 12)), client(CONTINUATION, bytes(all[12]))), serverDecoder(), CloseCodes.INVALID_PAYLOAD);
    }

    /** Autobahn 6.4.3 and 6.4.4: one frame, sent in chops; the chop holding the bad byte fails it, the frame unfinished. */
    @Test
    void invalidUtf8FailsInsideAFrameAsSoonAsTheBadByteArrives_autobahn6_4_3() throws Exception {
        byte[] payload = hex("ce ba e1 bd b9 cf 83 ce bc ce b5 f4 90 80 80 65 64 69 74 65 64");
        byte[] frame = client(FIN | TEXT, payload);
        int headerLength = 6;
        int badByte = headerLength + 12; // the 0x90 after f4
        for (int end = headerLength; end <= frame.length; end++) {
            Outcome outcome = DecoderFeeding.feed(serverDecoder().get(), List.of(Arrays.copyOf(frame, end)));
            assertThat(outcome.failure()).as("fed up to %d", end).isEqualTo(end > badByte ? CloseCodes.INVALID_PAYLOAD : 0);
        }
    }

    @Test
    void invalidUtf8FailsInsideACompressedFrameAsItInflates() throws Exception {
        // a stored (uncompressed) DEFLATE block holding the bytes: 00 len nlen bytes
        byte[] text = hex("ce ba e1 bd b9 cf 83 ce bc ce b5 f4 90 80 80 65 64 69 74 65 64");
        byte[] stored = concat(bytes(0x00, text.length, 0, ~text.length & 0xFF, 0xFF), text);
        byte[] frame = client(FIN | RSV1 | TEXT, stored);
        int badByte = 6 + 5 + 12;
        for (int end = 6; end <= frame.length; end++) {
            Outcome outcome = DecoderFeeding.feed(WITH_DEFLATE.get(), List.of(Arrays.copyOf(frame, end)));
            assertThat(outcome.failure()).as("fed up to %d", end).isEqualTo(end > badByte ? CloseCodes.INVALID_PAYLOAD : 0);
        }
    }

    // --- close frames

    @Test
    void aCloseFrameEndsDecodingAndWhatFollowsIsLeft_section5_5_1() {
        byte[] close = client(FIN | CLOSE, closeBody(1000, utf8("bye")));
        byte[] input = concat(client(FIN | TEXT, "last"), close, client(FIN | TEXT, "never"));
        Outcome outcome = assertSameHoweverFed(input, serverDecoder());
        assertThat(outcome.events()).containsExactly(Event.text("last"), Event.close(1000, "bye"));
        assertThat(outcome.closed()).isTrue();
        assertThat(outcome.consumed()).isEqualTo(input.length - client(FIN | TEXT, "never").length);
    }

    @Test
    void aCloseFrameWithoutABodyReports1005() {
        Outcome outcome = assertSameHoweverFed(client(FIN | CLOSE, new byte[0]), serverDecoder());
        assertThat(outcome.events()).containsExactly(Event.close(CloseCodes.NO_STATUS, ""));
        assertThat(outcome.closed()).isTrue();
    }

    @Test
    void aCloseFrameWithAOneByteBodyIsRefused_section5_5_1() {
        assertFails(client(FIN | CLOSE, bytes(0x03)), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
    }

    @ParameterizedTest
    @ValueSource(ints = {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999})
    void closeCodesValidOnTheWireAreReported_autobahn7_7(int code) {
        Outcome outcome = assertSameHoweverFed(client(FIN | CLOSE, closeBody(code, utf8("Ω reason"))), serverDecoder());
        assertThat(outcome.events()).containsExactly(Event.close(code, "Ω reason"));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535})
    void closeCodesNotValidOnTheWireAreRefused_autobahn7_9(int code) {
        assertFails(client(FIN | CLOSE, closeBody(code, new byte[0])), serverDecoder(), CloseCodes.PROTOCOL_ERROR);
    }

    @Test
    void aCloseReasonThatIsNotUtf8IsRefused_autobahn7_5_1() {
        assertFails(client(FIN | CLOSE, closeBody(1000, hex("ce ba e1 bd b9 cf 83 ce bc ce b5 ed a0 80 65 64 69 74 65 64"))),
                serverDecoder(), CloseCodes.INVALID_PAYLOAD);
        assertFails(client(FIN | CLOSE, closeBody(1000, hex("e2 82"))), serverDecoder(), CloseCodes.INVALID_PAYLOAD);
    }

    // --- the contract with the caller and the sink

    @Test
    void nothingGivenNeedsMore() throws Exception {
        MessageDecoder decoder = serverDecoder().get();
        assertThat(decoder.decode(ByteBuffer.allocate(0), new DecoderFeeding.Recorder())).isTrue();
        assertThat(decoder.inMessage()).isFalse();
        decoder.decode(ByteBuffer.wrap(client(TEXT, "a")), new DecoderFeeding.Recorder());
        assertThat(decoder.inMessage()).isTrue();
    }

    @Test
    void anIOExceptionFromTheSinkGoesThroughAndTheDecoderGoesOnAfterIt() throws Exception {
        MessageDecoder decoder = serverDecoder().get();
        DecoderFeeding.Recorder recorder = new DecoderFeeding.Recorder();
        MessageSink failing = new MessageSink() {
            @Override
            public void text(String message) throws IOException {
                throw new IOException("write failed");
            }

            @Override
            public void binary(byte[] message) {
                recorder.binary(message);
            }

            @Override
            public void ping(byte[] payload) {
                recorder.ping(payload);
            }

            @Override
            public void pong(byte[] payload) {
                recorder.pong(payload);
            }

            @Override
            public void close(int code, String reason) {
                recorder.close(code, reason);
            }
        };
        ByteBuffer in = ByteBuffer.wrap(concat(client(FIN | TEXT, "a"), client(FIN | BINARY, bytes(9))));
        assertThatThrownBy(() -> decoder.decode(in, failing)).isInstanceOf(IOException.class);
        assertThat(decoder.decode(in, failing)).isTrue();
        assertThat(recorder.events).containsExactly(Event.binary(bytes(9)));
    }

    @Test
    void theSteadyStateAllocatesOnlyTheMessages() throws Exception {
        // a 100-byte binary message is handed over in the array it was read into (16 + 100 bytes,
        // rounded up to 8); 100 bytes of ASCII text cost only their String (24, and 16 + 100)
        assertThat(allocatedPerMessage(client(FIN | BINARY, new byte[100]))).as("per binary message").isLessThanOrEqualTo(128);
        assertThat(allocatedPerMessage(client(FIN | TEXT, "t".repeat(100)))).as("per text message").isLessThanOrEqualTo(152);
        assertThat(allocatedPerMessage(client(FIN | PING, new byte[8]))).as("per ping").isLessThanOrEqualTo(24);
    }

    @Test
    void aLargeFrameArrivingInPiecesEndsInAnArrayOfItsOwnSize() throws Exception {
        byte[] payload = new byte[1_000_000];
        for (int i = 0; i < payload.length; i++) payload[i] = (byte) i;
        byte[] frame = client(FIN | BINARY, payload);
        List<ByteBuffer> pieces = new java.util.ArrayList<>();
        for (int at = 0; at < frame.length; at += 16 * 1024) pieces.add(ByteBuffer.wrap(frame, at, Math.min(16 * 1024, frame.length - at)));
        MessageDecoder decoder = serverDecoder().get();
        byte[][] received = new byte[1][];
        MessageSink sink = new DecoderFeeding.Recorder() {
            @Override
            public void binary(byte[] message) {
                received[0] = message;
            }
        };
        long before = Allocations.currentThread();
        for (ByteBuffer piece : pieces) assertThat(decoder.decode(piece, sink)).isTrue();
        long allocated = Allocations.currentThread() - before;
        assertThat(received[0]).isEqualTo(payload);
        // 64 KiB ahead, doubling to 512 KiB, then the frame's exact size (some 1.98 MB in all), and
        // no copy at the end: the array the message was read into is handed over
        assertThat(allocated).as("bytes allocated").isLessThan(2_100_000);
    }

    private static long allocatedPerMessage(byte[] frame) throws Exception {
        ByteBuffer in = ByteBuffer.wrap(frame);
        MessageDecoder decoder = serverDecoder().get();
        long[] sizes = {0};
        MessageSink sink = new DecoderFeeding.Recorder() {
            @Override
            public void text(String message) {
                sizes[0] += message.length();
            }

            @Override
            public void binary(byte[] message) {
                sizes[0] += message.length;
            }

            @Override
            public void ping(byte[] payload) {
                sizes[0] += payload.length;
            }
        };
        for (int i = 0; i < 20_000; i++) decoder.decode(in.rewind(), sink);
        long before = Allocations.currentThread();
        for (int i = 0; i < 10_000; i++) decoder.decode(in.rewind(), sink);
        long allocated = Allocations.currentThread() - before;
        assertThat(sizes[0]).isPositive();
        return allocated / 10_000;
    }
}
