package dev.petrel.http2;

import static dev.petrel.http2.HpackTesting.hex;
import static dev.petrel.http2.HpackTesting.latin1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.http.ByteSink;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Huffman code of RFC 7541 Appendix B and the decoding errors of section 5.2. */
class HuffmanTest {
    /**
     * Codes as Appendix B lists them, for symbols of every length and at the ends of each run: the
     * class derives its codes from the lengths alone, so a wrong length would show here.
     */
    @ParameterizedTest(name = "symbol {0}")
    @CsvSource({
        "0,1ff8,13", "1,7fffd8,23", "2,fffffe2,28", "9,ffffea,24", "10,3ffffffc,30", "13,3ffffffd,30", "22,3ffffffe,30",
        "23,ffffff3,28", "31,ffffffb,28", "32,14,6", "33,3f8,10", "35,ffa,12", "36,1ff9,13", "38,f8,8", "39,7fa,11",
        "47,18,6", "48,0,5", "50,2,5", "58,5c,7", "59,fb,8", "60,7ffc,15", "63,3fc,10", "88,fc,8", "90,fd,8",
        "92,7fff0,19", "94,3ffc,14", "96,7ffd,15", "97,3,5", "116,9,5", "122,7b,7", "123,7ffe,15", "124,7fc,11",
        "125,3ffd,14", "126,1ffd,13", "127,ffffffc,28", "128,fffe6,20", "129,3fffd2,22", "135,7fffd9,23",
        "142,ffffeb,24", "153,1fffdc,21", "162,fffe9,20", "172,1fffdf,21", "191,7ffff1,23", "192,3ffffe0,26",
        "195,7fff1,19", "199,1ffffec,25", "203,7ffffde,27", "206,fffff1,24", "207,1ffffed,25", "208,7fff2,19",
        "209,1fffe3,21", "220,ffffffd,28", "224,fffec,20", "230,1fffe8,21", "235,1ffffef,25", "239,7ffff4,23",
        "241,7ffffe6,27", "249,ffffffe,28", "254,7fffff0,27", "255,3ffffee,26", "256,3fffffff,30"})
    void appendixBCodes(int symbol, String code, int length) {
        assertThat(Integer.toHexString(Huffman.code(symbol))).isEqualTo(code);
        assertThat(Huffman.codeLength(symbol)).isEqualTo(length);
    }

    @Test
    void theCodeIsCompleteAndPrefixFree() {
        // Kraft: the 2^-length of a complete prefix code sum to exactly 1
        BigInteger sum = BigInteger.ZERO;
        for (int s = 0; s <= Huffman.EOS; s++) sum = sum.add(BigInteger.ONE.shiftLeft(30 - Huffman.codeLength(s)));
        assertThat(sum).isEqualTo(BigInteger.ONE.shiftLeft(30));
    }

    @Test
    void appendixCStrings() throws HpackException {
        assertThat(encode("www.example.com")).isEqualTo("f1e3c2e5f23a6ba0ab90f4ff");
        assertThat(encode("no-cache")).isEqualTo("a8eb10649cbf");
        assertThat(encode("custom-key")).isEqualTo("25a849e95ba97d7f");
        assertThat(encode("custom-value")).isEqualTo("25a849e95bb8e8b4bf");
        assertThat(encode("private")).isEqualTo("aec3771a4b");
        assertThat(encode("Mon, 21 Oct 2013 20:13:21 GMT")).isEqualTo("d07abe941054d444a8200595040b8166e082a62d1bff");
        assertThat(encode("https://www.example.com")).isEqualTo("9d29ad171863c78f0b97c8e9ae82ae43d3");
        assertThat(encode("gzip")).isEqualTo("9bd9ab");
        assertThat(decode("640eff")).isEqualTo("307");
        assertThat(decode("94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007"))
                .isEqualTo("foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1");
    }

    @Test
    void roundTripsEveryByteValue() throws HpackException {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) all[i] = (byte) i;
        assertThat(roundTrip(all)).isEqualTo(all);
        for (int i = 0; i < 256; i++) {
            byte[] one = {(byte) i};
            assertThat(roundTrip(one)).isEqualTo(one);
            byte[] eight = new byte[8];
            Arrays.fill(eight, (byte) i);
            assertThat(roundTrip(eight)).isEqualTo(eight);
        }
    }

    @Property
    void roundTripsAnyBytes(@ForAll @Size(max = 300) byte[] bytes) throws HpackException {
        assertThat(roundTrip(bytes)).isEqualTo(bytes);
    }

    @Property
    void encodedLengthIsWhatEncodeWrites(@ForAll @Size(max = 300) byte[] bytes) {
        ByteSink out = new ByteSink(4);
        Huffman.encode(out, bytes, 0, bytes.length);
        assertThat((long) out.length()).isEqualTo(Huffman.encodedLength(bytes, 0, bytes.length));
        assertThat(out.length()).isLessThanOrEqualTo((bytes.length * 30 + 7) / 8);
    }

    @Test
    void theEmptyStringIsEmpty() throws HpackException {
        assertThat(encode("")).isEmpty();
        assertThat(decode("")).isEmpty();
    }

    @Test
    void section5_2RefusesEosInTheString() {
        // EOS (30 ones) and then padding: 0xffffffff is EOS followed by two bits of padding
        assertThatThrownBy(() -> decode("ffffffff")).isInstanceOf(HpackException.class).hasMessage("HPACK Huffman string contains EOS");
        // 'a' (00011), then EOS starting mid-byte
        assertThatThrownBy(() -> decode("1fffffffff")).isInstanceOf(HpackException.class).hasMessage("HPACK Huffman string contains EOS");
    }

    @Test
    void section5_2RefusesPaddingLongerThanSevenBits() {
        // 'a' (00011) then 11 bits of ones; and a whole byte of ones alone
        assertThatThrownBy(() -> decode("1fff")).isInstanceOf(HpackException.class).hasMessage("HPACK Huffman padding longer than 7 bits");
        assertThatThrownBy(() -> decode("ff")).isInstanceOf(HpackException.class).hasMessage("HPACK Huffman padding longer than 7 bits");
    }

    @Test
    void section5_2RefusesPaddingThatIsNotAllOnes() {
        // 'a' (00011) padded with 000 instead of 111
        assertThatThrownBy(() -> decode("18")).isInstanceOf(HpackException.class).hasMessage("HPACK Huffman padding not all ones");
        // 'a' padded 101
        assertThatThrownBy(() -> decode("1d")).isInstanceOf(HpackException.class).hasMessage("HPACK Huffman padding not all ones");
        assertThat(catchDecode("1f")).isNull(); // 'a' padded 111 is fine
    }

    private static HpackException catchDecode(String dump) {
        try {
            decode(dump);
            return null;
        } catch (HpackException e) {
            return e;
        }
    }

    private static String encode(String s) {
        ByteSink out = new ByteSink(4);
        byte[] bytes = latin1(s);
        Huffman.encode(out, bytes, 0, bytes.length);
        return hex(out.toByteArray());
    }

    private static String decode(String dump) throws HpackException {
        byte[] encoded = hex(dump);
        byte[] dst = new byte[Huffman.maxDecodedLength(encoded.length)];
        int n = Huffman.decode(ByteBuffer.wrap(encoded), encoded.length, dst);
        return new String(dst, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    private static byte[] roundTrip(byte[] bytes) throws HpackException {
        ByteSink out = new ByteSink(4);
        Huffman.encode(out, bytes, 0, bytes.length);
        byte[] encoded = out.toByteArray();
        ByteBuffer in = ByteBuffer.wrap(encoded);
        byte[] dst = new byte[Huffman.maxDecodedLength(encoded.length)];
        int n = Huffman.decode(in, encoded.length, dst);
        assertThat(in.hasRemaining()).isFalse();
        return Arrays.copyOf(dst, n);
    }
}
