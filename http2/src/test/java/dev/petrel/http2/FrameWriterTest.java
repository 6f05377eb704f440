package dev.petrel.http2;

import static dev.petrel.http2.FrameFeeding.bytes;
import static dev.petrel.http2.FrameFeeding.concat;
import static dev.petrel.http2.FrameFeeding.frame;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** {@link FrameWriter}: the exact bytes of each frame (RFC 9113 section 6), and its refusals. */
class FrameWriterTest {
    static byte[] written(Consumer<ByteBuffer> writer) {
        ByteBuffer out = ByteBuffer.allocate(1 << 16);
        writer.accept(out);
        out.flip();
        byte[] b = new byte[out.remaining()];
        out.get(b);
        return b;
    }

    @Test
    void header_section4_1() {
        assertThat(written(out -> FrameWriter.header(out, 0x010203, 0xFA, 0xFF, Integer.MAX_VALUE)))
                .isEqualTo(bytes(1, 2, 3, 0xFA, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF));
        assertThatThrownBy(() -> written(out -> FrameWriter.header(out, Frames.MAX_MAX_FRAME_SIZE + 1, 0, 0, 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> written(out -> FrameWriter.header(out, 0, 256, 0, 1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> written(out -> FrameWriter.header(out, 0, 0, 0, -1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void settingsAtTheirDefaultsAreEmpty_section6_5() {
        assertThat(written(out -> FrameWriter.settings(out, new Http2Settings()))).isEqualTo(frame(Frames.SETTINGS, 0, 0));
    }

    @Test
    void settingsCarryWhatDiffersAndWhatWasSet_section6_5() {
        Http2Settings ours = new Http2Settings();
        ours.set(Http2Settings.MAX_CONCURRENT_STREAMS, 100);
        ours.set(Http2Settings.HEADER_TABLE_SIZE, 4096); // the default, but set explicitly
        ours.set(Http2Settings.ENABLE_PUSH, 0);
        assertThat(written(out -> FrameWriter.settings(out, ours))).isEqualTo(frame(Frames.SETTINGS, 0, 0, bytes(
                0, 1, 0, 0, 0x10, 0,
                0, 2, 0, 0, 0, 0,
                0, 3, 0, 0, 0, 100)));
        Http2Settings received = new Http2Settings();
        received.apply(Http2Settings.INITIAL_WINDOW_SIZE, 1 << 20);
        assertThat(written(out -> FrameWriter.settings(out, received)))
                .isEqualTo(frame(Frames.SETTINGS, 0, 0, bytes(0, 4, 0, 0x10, 0, 0)));
    }

    @Test
    void settingsAck_section6_5_3() {
        assertThat(written(FrameWriter::settingsAck)).isEqualTo(frame(Frames.SETTINGS, Frames.FLAG_ACK, 0));
    }

    @Test
    void ping_section6_7() {
        assertThat(written(out -> FrameWriter.ping(out, true, 0x0102030405060708L)))
                .isEqualTo(frame(Frames.PING, Frames.FLAG_ACK, 0, bytes(1, 2, 3, 4, 5, 6, 7, 8)));
        assertThat(written(out -> FrameWriter.ping(out, false, -1L)))
                .isEqualTo(frame(Frames.PING, 0, 0, bytes(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF)));
    }

    @Test
    void goaway_section6_8() {
        assertThat(written(out -> FrameWriter.goaway(out, 7, Http2ErrorCode.PROTOCOL_ERROR, null)))
                .isEqualTo(frame(Frames.GOAWAY, 0, 0, bytes(0, 0, 0, 7, 0, 0, 0, 1)));
        assertThat(written(out -> FrameWriter.goaway(out, 0, Http2ErrorCode.ENHANCE_YOUR_CALM, bytes('x'))))
                .isEqualTo(frame(Frames.GOAWAY, 0, 0, bytes(0, 0, 0, 0, 0, 0, 0, 0xb, 'x')));
    }

    @Test
    void windowUpdate_section6_9() {
        assertThat(written(out -> FrameWriter.windowUpdate(out, 0, Integer.MAX_VALUE)))
                .isEqualTo(frame(Frames.WINDOW_UPDATE, 0, 0, bytes(0x7F, 0xFF, 0xFF, 0xFF)));
        assertThatThrownBy(() -> written(out -> FrameWriter.windowUpdate(out, 1, 0))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rstStream_section6_4() {
        assertThat(written(out -> FrameWriter.rstStream(out, 3, Http2ErrorCode.CANCEL)))
                .isEqualTo(frame(Frames.RST_STREAM, 0, 3, bytes(0, 0, 0, 8)));
        assertThatThrownBy(() -> written(out -> FrameWriter.rstStream(out, 0, Http2ErrorCode.CANCEL)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void headersInOneFrame_section6_2() {
        byte[] block = bytes('a', 'b', 'c');
        assertThat(written(out -> FrameWriter.headers(out, 1, block, 0, 3, true, 16_384)))
                .isEqualTo(frame(Frames.HEADERS, Frames.FLAG_END_STREAM | Frames.FLAG_END_HEADERS, 1, block));
        assertThat(written(out -> FrameWriter.headers(out, 1, block, 0, 0, false, 16_384)))
                .isEqualTo(frame(Frames.HEADERS, Frames.FLAG_END_HEADERS, 1));
        assertThat(FrameWriter.headersSize(0, 16_384)).isEqualTo(9);
        assertThat(FrameWriter.headersSize(3, 16_384)).isEqualTo(12);
    }

    @Test
    void headersOverContinuationFrames_section4_3() {
        byte[] block = bytes('x', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'y');
        byte[] bytes = written(out -> FrameWriter.headers(out, 5, block, 1, 7, true, 3));
        assertThat(bytes).isEqualTo(concat(
                frame(Frames.HEADERS, Frames.FLAG_END_STREAM, 5, bytes('a', 'b', 'c')),
                frame(Frames.CONTINUATION, 0, 5, bytes('d', 'e', 'f')),
                frame(Frames.CONTINUATION, Frames.FLAG_END_HEADERS, 5, bytes('g'))));
        assertThat(FrameWriter.headersSize(7, 3)).isEqualTo(bytes.length);
        assertThat(FrameWriter.headersSize(6, 3)).isEqualTo(2 * 9 + 6);
    }

    @Test
    void data_section6_1() {
        byte[] b = bytes('h', 'e', 'l', 'l', 'o');
        assertThat(written(out -> FrameWriter.data(out, 3, b, 1, 3, true)))
                .isEqualTo(frame(Frames.DATA, Frames.FLAG_END_STREAM, 3, bytes('e', 'l', 'l')));
        assertThat(written(out -> FrameWriter.data(out, 3, b, 0, 0, false))).isEqualTo(frame(Frames.DATA, 0, 3));
        assertThatThrownBy(() -> written(out -> FrameWriter.data(out, 0, b, 0, 1, false))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFrameThatDoesNotFitIsNotStarted() {
        ByteBuffer out = ByteBuffer.allocate(20);
        out.put((byte) 1);
        assertThatThrownBy(() -> FrameWriter.data(out, 1, new byte[11], 0, 11, false)).isInstanceOf(BufferOverflowException.class);
        assertThatThrownBy(() -> FrameWriter.headers(out, 1, new byte[30], 0, 30, false, 16)).isInstanceOf(BufferOverflowException.class);
        assertThatThrownBy(() -> FrameWriter.goaway(out, 1, Http2ErrorCode.NO_ERROR, new byte[3])).isInstanceOf(BufferOverflowException.class);
        assertThat(out.position()).isEqualTo(1);
        assertThat(Arrays.copyOfRange(out.array(), 1, 20)).containsOnly(0);
        FrameWriter.data(out, 1, new byte[10], 0, 10, false);
        assertThat(out.hasRemaining()).isFalse();
    }

    @Test
    void bigEndianWhateverTheBufferSays_section1() {
        ByteBuffer out = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        FrameWriter.ping(out, false, 0x0102030405060708L);
        assertThat(Arrays.copyOfRange(out.array(), 0, out.position())).isEqualTo(frame(Frames.PING, 0, 0, bytes(1, 2, 3, 4, 5, 6, 7, 8)));
    }
}
