package dev.petrel.server.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class SessionReadBufferTest {
    private static void read(SessionReadBuffer buffer, int bytes) {
        ByteBuffer into = buffer.startRead();
        into.put(new byte[Math.min(bytes, into.remaining())]);
        buffer.endRead();
    }

    @Test
    void itsOwnWaitsInTheSmallBufferAndStreamsInTheLargeOneWhileReadsComeFull() {
        SessionReadBuffer buffer = new SessionReadBuffer();
        assertThat(buffer.input().hasRemaining()).isFalse();
        read(buffer, 10);
        assertThat(buffer.input().capacity()).isEqualTo(SessionReadBuffer.WAITING_BYTES);
        assertThat(buffer.input().remaining()).isEqualTo(10);
        buffer.input().position(buffer.input().limit());
        read(buffer, 100_000); // fills the small one
        assertThat(buffer.input().remaining()).isEqualTo(SessionReadBuffer.WAITING_BYTES);
        buffer.input().position(buffer.input().limit());
        read(buffer, 100_000);
        assertThat(buffer.input().capacity()).as("more is likely waiting").isEqualTo(SessionReadBuffer.STREAMING_BYTES);
        buffer.input().position(buffer.input().limit());
        read(buffer, 5);
        buffer.input().position(buffer.input().limit());
        read(buffer, 0);
        assertThat(buffer.input().capacity()).as("paused: back to waiting small").isEqualTo(SessionReadBuffer.WAITING_BYTES);
    }

    @Test
    void onTheLoopSessionsShareOneBufferAndNeverSeeEachOthersBytes() {
        SessionReadBuffer first = new SessionReadBuffer();
        SessionReadBuffer second = new SessionReadBuffer();
        first.shareLoopBuffer();
        second.shareLoopBuffer();
        read(first, 7);
        assertThat(first.input().remaining()).isEqualTo(7);
        assertThat(second.input().hasRemaining()).isFalse();
        read(second, 3); // the first left its bytes (after a close frame, say): the second's read takes the buffer
        assertThat(second.input().remaining()).isEqualTo(3);
        assertThat(first.input().hasRemaining()).as("its bytes are gone, not the second's").isFalse();
        assertThat(second.input()).isSameAs(second.input());
        assertThat(second.input().capacity()).isEqualTo(SessionReadBuffer.STREAMING_BYTES);
    }
}
