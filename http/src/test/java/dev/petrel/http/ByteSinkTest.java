package dev.petrel.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ByteSinkTest {
    private static String text(ByteSink sink) {
        return new String(sink.toByteArray(), StandardCharsets.ISO_8859_1);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 9, 10, 11, 99, 100, 101, 999_999, 1_000_000, Integer.MAX_VALUE, 1L << 32,
            999_999_999_999_999_999L, 1_000_000_000_000_000_000L, Long.MAX_VALUE - 1, Long.MAX_VALUE})
    void decimal(long value) {
        ByteSink sink = new ByteSink(1);
        sink.writeLatin1("<").writeDecimal(value).writeLatin1(">");
        assertThat(text(sink)).isEqualTo("<" + value + ">");
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 9, 10, 15, 16, 17, 255, 256, 0xFFF, 0x1000, Integer.MAX_VALUE, 0xFFFF_FFFFL, 1L << 32,
            0x0FFF_FFFF_FFFF_FFFFL, 1L << 60, Long.MAX_VALUE - 1, Long.MAX_VALUE})
    void hex(long value) {
        ByteSink sink = new ByteSink(1);
        sink.writeLatin1("<").writeHex(value).writeLatin1(">");
        assertThat(text(sink)).isEqualTo("<" + Long.toHexString(value) + ">");
    }

    @Test
    void edgeValuesSpelledOut() {
        ByteSink sink = new ByteSink(0);
        sink.writeDecimal(0).write(' ').writeHex(0).write(' ')
                .writeDecimal(Long.MAX_VALUE).write(' ').writeHex(Long.MAX_VALUE).write(' ')
                .writeHex(0xABCDEF);
        assertThat(text(sink)).isEqualTo("0 0 9223372036854775807 7fffffffffffffff abcdef");
    }

    @ParameterizedTest
    @ValueSource(longs = {-1, Long.MIN_VALUE})
    void negativeNumbersAreRefused(long value) {
        ByteSink sink = new ByteSink(4);
        sink.write('x');
        assertThatThrownBy(() -> sink.writeDecimal(value)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> sink.writeHex(value)).isInstanceOf(IllegalArgumentException.class);
        assertThat(text(sink)).isEqualTo("x");
    }

    @Test
    void growsFromZeroCapacityAndKeepsOrder() {
        ByteSink sink = new ByteSink(0);
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            sink.write('a' + i % 26);
            expected.append((char) ('a' + i % 26));
        }
        byte[] block = new byte[5000];
        java.util.Arrays.fill(block, (byte) 'z');
        sink.write(block);
        expected.append("z".repeat(5000));
        sink.write(new byte[] {1, 2, 'Q', 'R', 3}, 2, 2);
        expected.append("QR");
        assertThat(sink.length()).isEqualTo(6002);
        assertThat(text(sink)).isEqualTo(expected.toString());
        assertThat(sink.array().length).isGreaterThanOrEqualTo(6002);
    }

    @Test
    void writeKeepsTheLowByte() {
        ByteSink sink = new ByteSink(2);
        sink.write(0x1FF).write(-1).write(0x80);
        assertThat(sink.toByteArray()).containsExactly((byte) 0xFF, (byte) 0xFF, (byte) 0x80);
    }

    @Test
    void writeLatin1WritesOneBytePerChar() {
        ByteSink sink = new ByteSink(2);
        sink.writeLatin1("caf\u00e9").writeLatin1("");
        assertThat(sink.toByteArray()).containsExactly('c', 'a', 'f', (byte) 0xE9);
    }

    @Test
    void clearKeepsTheStorage() {
        ByteSink sink = new ByteSink(4);
        sink.writeLatin1("a longer text than four bytes");
        byte[] storage = sink.array();
        sink.clear();
        assertThat(sink.length()).isZero();
        assertThat(sink.toByteArray()).isEmpty();
        sink.writeLatin1("new");
        assertThat(sink.array()).isSameAs(storage);
        assertThat(text(sink)).isEqualTo("new");
    }

    @Test
    void toByteArrayIsACopy() {
        ByteSink sink = new ByteSink(8);
        sink.writeLatin1("abc");
        byte[] copy = sink.toByteArray();
        copy[0] = 'X';
        assertThat(text(sink)).isEqualTo("abc");
        assertThat(copy).hasSize(3);
    }
}
