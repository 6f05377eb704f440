package dev.petrel.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ChunkedEncoderTest {
    private final ByteSink sink = new ByteSink(4);

    private String written() {
        return new String(sink.toByteArray(), StandardCharsets.US_ASCII);
    }

    @ParameterizedTest
    @CsvSource({"1, 1", "9, 9", "10, a", "15, f", "16, 10", "255, ff", "256, 100", "4096, 1000", "2147483647, 7fffffff"})
    void chunkHeadersAreLowerCaseHexFollowedByCrlf(int length, String hex) {
        ChunkedEncoder.chunkHeader(length, sink);
        assertThat(written()).isEqualTo(hex + "\r\n");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    void aDataChunkCannotBeEmpty(int length) {
        assertThatThrownBy(() -> ChunkedEncoder.chunkHeader(length, sink)).isInstanceOf(IllegalArgumentException.class);
        assertThat(sink.length()).isZero();
    }

    @Test
    void aWholeBody() {
        ChunkedEncoder.chunkHeader(5, sink);
        sink.writeLatin1("hello");
        ChunkedEncoder.chunkEnd(sink);
        ChunkedEncoder.chunkHeader(17, sink);
        sink.writeLatin1(" world, chunked!!");
        ChunkedEncoder.chunkEnd(sink);
        ChunkedEncoder.lastChunk(sink);
        assertThat(written()).isEqualTo("5\r\nhello\r\n11\r\n world, chunked!!\r\n0\r\n\r\n");
    }

    @Test
    void theLastChunkEndsWithAnEmptyTrailerSection() {
        ChunkedEncoder.lastChunk(sink);
        assertThat(written()).isEqualTo("0\r\n\r\n");
        ChunkedEncoder.chunkEnd(sink);
        assertThat(written()).isEqualTo("0\r\n\r\n\r\n");
    }
}
