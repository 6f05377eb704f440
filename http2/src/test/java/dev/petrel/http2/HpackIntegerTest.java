package dev.petrel.http2;

import static dev.petrel.http2.HpackTesting.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.http.ByteSink;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Prefix integers, RFC 7541 section 5.1 and the examples of Appendix C.1. */
class HpackIntegerTest {
    @Test
    void c1_1TenWithAFiveBitPrefix() throws HpackException {
        assertThat(encode(0xE0, 5, 10)).isEqualTo("ea"); // the three flag bits stay as given
        assertThat(decode("ea", 5)).isEqualTo(10);
    }

    @Test
    void c1_2ThirteenThirtySevenWithAFiveBitPrefix() throws HpackException {
        assertThat(encode(0, 5, 1337)).isEqualTo("1f9a0a");
        assertThat(decode("1f9a0a", 5)).isEqualTo(1337);
    }

    @Test
    void c1_3FortyTwoStartingAtAByteBoundary() throws HpackException {
        assertThat(encode(0, 8, 42)).isEqualTo("2a");
        assertThat(decode("2a", 8)).isEqualTo(42);
    }

    @ParameterizedTest
    @CsvSource({"1,0", "1,1", "4,14", "4,15", "4,16", "5,30", "5,31", "5,32", "6,63", "6,190", "7,127", "7,128",
        "7,16383", "7,16384", "8,255", "8,256", "4,2147483647", "7,2147483647", "8,2147483647", "1,2147483647"})
    void roundTripsAtTheEdges(int prefixBits, int value) throws HpackException {
        ByteSink out = new ByteSink(8);
        HpackInteger.encode(out, 0, prefixBits, value);
        ByteBuffer in = ByteBuffer.wrap(out.toByteArray());
        int first = in.get() & 0xFF;
        assertThat(HpackInteger.decode(in, first, prefixBits)).isEqualTo(value);
        assertThat(in.hasRemaining()).isFalse();
    }

    @Test
    void section5_1RefusesValuesBeyond2To31Minus1() {
        // 31 + 0x7f + 0x7f<<7 + 0x7f<<14 + 0x7f<<21 + 0x08<<28 = 2^31 + 30
        assertThatThrownBy(() -> decode("1fffffffff08", 5))
                .isInstanceOf(HpackException.class).hasMessage("HPACK integer too large");
    }

    @Test
    void section5_1RefusesMoreContinuationBytesThanAnIntNeeds() {
        // zero groups add nothing, but a peer may not send them without end
        assertThatThrownBy(() -> decode("1f808080808000", 5))
                .isInstanceOf(HpackException.class).hasMessage("HPACK integer too large");
    }

    @Test
    void section5_1AcceptsRedundantZeroGroupsWithinTheBound() throws HpackException {
        assertThat(decode("1f80808000", 5)).isEqualTo(31);
    }

    @Test
    void section5_1RefusesATruncatedInteger() {
        assertThatThrownBy(() -> decode("1f", 5)).isInstanceOf(HpackException.class).hasMessage("HPACK integer truncated");
        assertThatThrownBy(() -> decode("1f9a", 5)).isInstanceOf(HpackException.class).hasMessage("HPACK integer truncated");
    }

    private static String encode(int flags, int prefixBits, int value) {
        ByteSink out = new ByteSink(8);
        HpackInteger.encode(out, flags, prefixBits, value);
        return hex(out.toByteArray());
    }

    private static int decode(String dump, int prefixBits) throws HpackException {
        ByteBuffer in = ByteBuffer.wrap(hex(dump));
        int first = in.get() & 0xFF;
        int value = HpackInteger.decode(in, first & ((1 << prefixBits) - 1), prefixBits);
        assertThat(in.hasRemaining()).as("reads exactly its bytes").isFalse();
        return value;
    }
}
