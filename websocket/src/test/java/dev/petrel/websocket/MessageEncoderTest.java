package dev.petrel.websocket;

import static dev.petrel.websocket.WireFrames.KEY;
import static dev.petrel.websocket.WireFrames.concat;
import static dev.petrel.websocket.WireFrames.hex;
import static dev.petrel.websocket.WireFrames.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.testkit.Allocations;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** {@link MessageEncoder} against RFC 6455's frame layout and section 5.7's examples. */
class MessageEncoderTest {
    private static final MessageEncoder SERVER = new MessageEncoder(false, null);

    /** A client encoder masking every frame with RFC 6455 section 5.7's key. */
    private static MessageEncoder client() {
        return new MessageEncoder(true, null, () -> KEY);
    }

    private static byte[] bytes(ByteBuffer frame) {
        assertThat(frame.position()).as("flipped").isZero();
        byte[] b = new byte[frame.remaining()];
        frame.get(b);
        return b;
    }

    private static String hexOf(ByteBuffer frame) {
        return HexFormat.of().formatHex(bytes(frame));
    }

    @Test
    void unmaskedAndMaskedHello_section5_7() {
        assertThat(hexOf(SERVER.text("Hello"))).isEqualTo("810548656c6c6f");
        assertThat(hexOf(client().text("Hello"))).isEqualTo("818537fa213d7f9f4d5158");
        assertThat(hexOf(SERVER.ping(ByteBuffer.wrap(utf8("Hello"))))).isEqualTo("890548656c6c6f");
        assertThat(hexOf(client().pong(ByteBuffer.wrap(utf8("Hello"))))).isEqualTo("8a8537fa213d7f9f4d5158");
    }

    @Test
    void fragmentedHello_section5_7() {
        MessageEncoder encoder = new MessageEncoder(false, null);
        assertThat(hexOf(encoder.frame(Opcode.TEXT, false, ByteBuffer.wrap(utf8("Hel"))))).isEqualTo("010348656c");
        assertThat(hexOf(encoder.frame(Opcode.PING, true, ByteBuffer.allocate(0)))).isEqualTo("8900");
        assertThat(hexOf(encoder.frame(Opcode.CONTINUATION, true, ByteBuffer.wrap(utf8("lo"))))).isEqualTo("80026c6f");
    }

    @Test
    void lengthsTakeTheShortestOfTheirThreeForms_section5_2() {
        for (int length : new int[] {0, 125, 126, 65535, 65536, 100_000}) {
            byte[] payload = new byte[length];
            Arrays.fill(payload, (byte) 'b');
            byte[] frame = bytes(SERVER.binary(ByteBuffer.wrap(payload)));
            byte[] expected = length < 126 ? concat(new byte[] {(byte) 0x82, (byte) length}, payload)
                    : length <= 0xFFFF ? concat(hex("82 7e"), new byte[] {(byte) (length >>> 8), (byte) length}, payload)
                    : concat(hex("82 7f 00 00 00 00"), new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length}, payload);
            assertThat(frame).as("length %d", length).isEqualTo(expected);
            assertThat(MessageEncoder.headerLength(length, false)).isEqualTo(expected.length - length);
            assertThat(MessageEncoder.headerLength(length, true)).isEqualTo(expected.length - length + 4);
        }
    }

    @Test
    void textIsUtf8WhateverItHolds() {
        for (String text : new String[] {"", "ascii only", "é", "€uro", "😀 smile", "mixed é€😀 text", "\u07FF\u0800\uFFFF"}) {
            byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            assertThat(bytes(SERVER.text(text))).as(text).isEqualTo(concat(new byte[] {(byte) 0x81, (byte) utf8.length}, utf8));
        }
        // a lone surrogate is not text: encoded as the JDK does, replaced by '?'
        assertThat(bytes(SERVER.text("a\uD800b"))).isEqualTo(hex("81 03 61 3f 62"));
        assertThat(bytes(SERVER.text("a\uDC00"))).isEqualTo(hex("81 02 61 3f"));
    }

    @Test
    void binaryTakesTheRemainingBytesAndMovesThePosition() {
        ByteBuffer payload = ByteBuffer.wrap(hex("00 01 02 03 04")).position(1).limit(4);
        assertThat(hexOf(SERVER.binary(payload))).isEqualTo("8203010203");
        assertThat(payload.position()).isEqualTo(4);
        ByteBuffer direct = ByteBuffer.allocateDirect(3).put(hex("0a 0b 0c")).flip();
        assertThat(hexOf(client().binary(direct))).isEqualTo("8283" + "37fa213d" + "3df12d");
    }

    @Test
    void clientFramesTakeANewKeyEach() {
        int[] keys = {0x01020304, 0xA0B0C0D0};
        int[] next = {0};
        MessageEncoder encoder = new MessageEncoder(true, null, () -> keys[next[0]++]);
        assertThat(hexOf(encoder.text("ab"))).isEqualTo("8182010203046060");
        assertThat(hexOf(encoder.text("ab"))).isEqualTo("8182a0b0c0d0c1d2");
        // the default: a secure random key, so two frames almost never share one
        MessageEncoder random = new MessageEncoder(true, null);
        assertThat(bytes(random.text("same"))).isNotEqualTo(bytes(random.text("same")));
        assertThatThrownBy(() -> new MessageEncoder(true, null, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void closeFramesCarryTheCodeAndAReasonCutAtACharacterBoundary_section5_5_1() {
        assertThat(hexOf(SERVER.close(1000, null))).isEqualTo("880203e8");
        assertThat(hexOf(SERVER.close(1001, "bye"))).isEqualTo("880503e9627965");
        assertThat(hexOf(SERVER.close(CloseCodes.NO_STATUS, "ignored"))).isEqualTo("8800");
        String reason = "x".repeat(122) + "€"; // 125 bytes: the € (3 bytes) does not fit whole
        byte[] frame = bytes(SERVER.close(1000, reason));
        assertThat(frame[1]).isEqualTo((byte) (2 + 122));
        assertThat(new String(frame, 4, frame.length - 4, StandardCharsets.UTF_8)).isEqualTo("x".repeat(122));
        byte[] exact = bytes(SERVER.close(4000, "y".repeat(120) + "€"));
        assertThat(exact[1]).as("123 bytes of reason fit").isEqualTo((byte) 125);
        assertThat(bytes(SERVER.close(4999, "z".repeat(500)))[1]).isEqualTo((byte) 125);
        for (int code : new int[] {0, 999, 1004, 1006, 1015, 2000, 5000}) {
            assertThatThrownBy(() -> SERVER.close(code, "")).as("code %d", code).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void controlFramesAreNeverLongerThan125BytesNorFragmented_section5_5() {
        assertThat(bytes(SERVER.ping(ByteBuffer.allocate(125)))).hasSize(127);
        assertThatThrownBy(() -> SERVER.ping(ByteBuffer.allocate(126))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SERVER.pong(ByteBuffer.allocate(126))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SERVER.frame(Opcode.PING, false, ByteBuffer.allocate(0))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MessageEncoder.writeHeader(ByteBuffer.allocate(14), Opcode.CLOSE, true, false, 126))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fragmentsFollowTheRulesOfSection5_4() {
        MessageEncoder encoder = new MessageEncoder(false, null);
        assertThatThrownBy(() -> encoder.frame(Opcode.CONTINUATION, true, ByteBuffer.allocate(1))).isInstanceOf(IllegalStateException.class);
        encoder.frame(Opcode.BINARY, false, ByteBuffer.allocate(1));
        assertThatThrownBy(() -> encoder.text("interleaved")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> encoder.binary(ByteBuffer.allocate(1))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> encoder.frame(Opcode.TEXT, true, ByteBuffer.allocate(1))).isInstanceOf(IllegalStateException.class);
        encoder.ping(ByteBuffer.allocate(0)); // control frames may come between fragments
        encoder.frame(Opcode.CONTINUATION, false, ByteBuffer.allocate(1));
        encoder.frame(Opcode.CONTINUATION, true, ByteBuffer.allocate(1));
        assertThat(hexOf(encoder.text("ok"))).isEqualTo("81026f6b");
    }

    @Test
    void writeHeaderIsForAPayloadWrittenByTheCaller() {
        ByteBuffer out = ByteBuffer.allocate(20);
        assertThat(MessageEncoder.writeHeader(out, Opcode.BINARY, true, true, 70_000)).isEqualTo(10);
        assertThat(HexFormat.of().formatHex(out.array(), 0, out.position())).isEqualTo("c27f0000000000011170");
        ByteBuffer little = ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertThat(MessageEncoder.writeHeader(little, Opcode.TEXT, false, false, 300)).isEqualTo(4);
        assertThat(HexFormat.of().formatHex(little.array(), 0, 4)).as("big-endian whatever the buffer's order").isEqualTo("017e012c");
        ByteBuffer small = ByteBuffer.allocate(3);
        assertThatThrownBy(() -> MessageEncoder.writeHeader(small, Opcode.TEXT, true, false, 300)).isInstanceOf(BufferOverflowException.class);
        assertThat(small.position()).as("nothing written").isZero();
        assertThatThrownBy(() -> MessageEncoder.writeHeader(small, Opcode.TEXT, true, false, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aTextMessageCostsOneAllocation() {
        String message = "m".repeat(100);
        for (int i = 0; i < 20_000; i++) SERVER.text(message);
        long before = Allocations.currentThread();
        long total = 0;
        for (int i = 0; i < 10_000; i++) total += SERVER.text(message).remaining();
        long perMessage = (Allocations.currentThread() - before) / 10_000;
        assertThat(total).isEqualTo(10_000L * 102);
        // the heap buffer (some 50 bytes) and its array (16 + 102, rounded up to 8): no UTF-8 copy in between
        assertThat(perMessage).as("bytes allocated per text frame").isLessThanOrEqualTo(200);
    }
}
