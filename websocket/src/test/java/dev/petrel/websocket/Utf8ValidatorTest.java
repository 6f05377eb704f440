package dev.petrel.websocket;

import static dev.petrel.websocket.WireFrames.hex;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Utf8Validator} on the sequences of Markus Kuhn's UTF-8 decoder stress test, as the
 * Autobahn suite's cases 6.x send them, and on every code point; fed whole, split at every byte
 * and byte by byte, it must fail at the first byte that makes the input invalid.
 */
class Utf8ValidatorTest {
    /**
     * Valid sequences, and invalid ones with the index of the first byte that makes them
     * invalid (-1: valid so far but cut short, found only at the end).
     */
    static Stream<Arguments> kuhn() {
        return Stream.of(
                // 1: some correct UTF-8 text
                valid("ce ba e1 bd b9 cf 83 ce bc ce b5"), // κόσμε
                valid("68 65 6c 6c 6f 24 77 6f 72 6c 64"),
                valid("68 65 6c 6c 6f c2 a2 77 6f 72 6c 64"),
                valid("68 65 6c 6c 6f e2 82 ac 77 6f 72 6c 64"),
                valid("68 65 6c 6c 6f f0 a4 ad a2 77 6f 72 6c 64"),
                // 2.1: the first sequence of each length
                valid("00"), valid("c2 80"), valid("e0 a0 80"), valid("f0 90 80 80"),
                invalid("f8 88 80 80 80", 0), invalid("fc 84 80 80 80 80", 0),
                // 2.2: the last sequence of each length
                valid("7f"), valid("df bf"), valid("ef bf bf"), valid("f4 8f bf bf"),
                invalid("f7 bf bf bf", 0), invalid("fb bf bf bf bf", 0), invalid("fd bf bf bf bf bf", 0),
                // 2.3: other boundary conditions
                valid("ed 9f bf"), valid("ee 80 80"), valid("ef bf bd"), invalid("f4 90 80 80", 1),
                // 3.1: unexpected continuation bytes
                invalid("80", 0), invalid("bf", 0), invalid("80 bf", 0), invalid("80 bf 80 bf 80 bf", 0),
                // 3.2: lonely start characters, each followed by a space
                invalid("c0 20", 0), invalid("c2 20", 1), invalid("df 20", 1), invalid("e0 20", 1),
                invalid("ef 20", 1), invalid("f0 20", 1), invalid("f7 20", 0), invalid("f8 20", 0), invalid("fd 20", 0),
                // 3.3: the last continuation byte missing
                invalid("c0", 0), invalid("e0 80", 1), invalid("f0 80 80", 1), invalid("f8 80 80 80", 0),
                invalid("fc 80 80 80 80", 0), cut("df"), cut("ef bf"), invalid("f7 bf bf", 0),
                invalid("fb bf bf bf", 0), invalid("fd bf bf bf bf", 0), cut("e1 80"), cut("f1 80 80"), cut("f4 8f bf"),
                // 3.4: incomplete sequences concatenated
                invalid("df ef bf", 1), invalid("ef bf f4 8f bf", 2),
                // 3.5: impossible bytes
                invalid("fe", 0), invalid("ff", 0), invalid("fe fe ff ff", 0),
                // 4.1: an overlong ASCII character
                invalid("c0 af", 0), invalid("e0 80 af", 1), invalid("f0 80 80 af", 1), invalid("f8 80 80 80 af", 0),
                invalid("fc 80 80 80 80 af", 0),
                // 4.2: the largest overlong sequences
                invalid("c1 bf", 0), invalid("e0 9f bf", 1), invalid("f0 8f bf bf", 1), invalid("f8 87 bf bf bf", 0),
                invalid("fc 83 bf bf bf bf", 0),
                // 4.3: overlong NUL
                invalid("c0 80", 0), invalid("e0 80 80", 1), invalid("f0 80 80 80", 1),
                // 5.1: single UTF-16 surrogates
                invalid("ed a0 80", 1), invalid("ed ad bf", 1), invalid("ed ae 80", 1), invalid("ed af bf", 1),
                invalid("ed b0 80", 1), invalid("ed be 80", 1), invalid("ed bf bf", 1),
                // 5.2: paired UTF-16 surrogates
                invalid("ed a0 80 ed b0 80", 1), invalid("ed af bf ed bf bf", 1),
                // 5.3: noncharacters, valid UTF-8
                valid("ef bf be"), valid("ef bf bf"), valid("f0 9f bf be"), valid("f3 bf bf bf"), valid("f4 8f bf be"),
                // Unicode specials
                valid("ef bf b9"), valid("ef bf bc"), valid("ef bf bd"),
                // Autobahn 6.4.1's message: valid, then U+110000, failing on its second byte
                invalid("ce ba e1 bd b9 cf 83 ce bc ce b5 f4 90 80 80 65 64 69 74 65 64", 12),
                // the same with the bad byte after a long ASCII run (the eight-at-a-time path)
                invalid("41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50 51 c0 80", 17),
                invalid("41 42 43 44 45 46 47 48 80", 8));
    }

    private static Arguments valid(String hex) {
        return Arguments.of(hex, true, -2);
    }

    private static Arguments invalid(String hex, int failsAt) {
        return Arguments.of(hex, false, failsAt);
    }

    /** Valid as far as it goes, but ending inside a sequence. */
    private static Arguments cut(String hex) {
        return Arguments.of(hex, false, -1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kuhn")
    void kuhnStressCases(String hexBytes, boolean valid, int failsAt) {
        byte[] input = hex(hexBytes);
        assertThat(Utf8Validator.isValid(input, 0, input.length)).isEqualTo(valid);
        assertThat(new String(input, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8)).as("the JDK agrees")
                .matches(reencoded -> Arrays.equals(reencoded, input) == valid);
        assertThat(firstFailure(input)).as("first byte making it invalid").isEqualTo(valid ? -2 : failsAt);
        for (int split = 0; split <= input.length; split++) {
            Utf8Validator v = new Utf8Validator();
            boolean ok = v.feed(input, 0, split) & v.feed(input, split, input.length - split);
            assertThat(ok && v.complete()).as("split at %d", split).isEqualTo(valid);
        }
    }

    /** Byte by byte: the index at which feed said no, -1 when only the end told, -2 when valid. */
    private static int firstFailure(byte[] input) {
        Utf8Validator v = new Utf8Validator();
        for (int i = 0; i < input.length; i++) {
            if (!v.feed(input, i, 1)) {
                assertThat(v.failed()).isTrue();
                assertThat(v.feed(new byte[] {'a'}, 0, 1)).as("stays failed").isFalse();
                return i;
            }
        }
        return v.complete() ? -2 : -1;
    }

    @Test
    void everyCodePointIsValidAndEverySurrogateIsNot() {
        Utf8Validator v = new Utf8Validator();
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            boolean surrogate = cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE;
            byte[] bytes = surrogate ? surrogateBytes(cp) : Character.toString(cp).getBytes(StandardCharsets.UTF_8);
            v.reset();
            boolean ok = v.feed(bytes, 0, bytes.length) && v.complete();
            if (ok == surrogate) throw new AssertionError("U+" + Integer.toHexString(cp) + ": " + HexFormat.of().formatHex(bytes));
        }
    }

    /** What a CESU or lax encoder writes for a surrogate: the three-byte form of its value. */
    private static byte[] surrogateBytes(int cp) {
        return new byte[] {(byte) (0xE0 | cp >> 12), (byte) (0x80 | cp >> 6 & 0x3F), (byte) (0x80 | cp & 0x3F)};
    }

    @Test
    void everyByteAfterEveryLeadIsJudgedAsTheJdkDoes() {
        // every two-byte input, and every three- and four-byte one starting with a lead byte,
        // against the JDK's strict decoder
        var decoder = StandardCharsets.UTF_8.newDecoder();
        for (int a = 0; a < 256; a++) {
            for (int b = 0; b < 256; b++) {
                for (int c : new int[] {0x41, 0x80, 0xBF}) {
                    for (int d : new int[] {0x41, 0x80, 0xBF}) {
                        byte[] input = {(byte) a, (byte) b, (byte) c, (byte) d};
                        boolean jdk;
                        try {
                            decoder.reset().decode(ByteBuffer.wrap(input));
                            jdk = true;
                        } catch (java.nio.charset.CharacterCodingException e) {
                            jdk = false;
                        }
                        assertThat(Utf8Validator.isValid(input, 0, 4)).as("%02x %02x %02x %02x", a, b, c, d).isEqualTo(jdk);
                    }
                }
            }
        }
    }

    @Test
    void aBadByteIsFoundAtEveryPositionOfALongAsciiRun() {
        for (int at = 0; at < 40; at++) {
            byte[] input = new byte[41];
            Arrays.fill(input, (byte) 'x');
            input[at] = (byte) 0x80;
            assertThat(Utf8Validator.isValid(input, 0, input.length)).as("0x80 at %d", at).isFalse();
            input[at] = (byte) 0xC3;
            input[at + 1] = (byte) 0xA9; // é
            assertThat(Utf8Validator.isValid(input, 0, input.length)).as("é at %d", at).isTrue();
        }
    }

    @Test
    void heapDirectAndOffsetBuffersAgree() {
        byte[] text = "añb€c😀d".getBytes(StandardCharsets.UTF_8);
        for (int cut = 0; cut <= text.length; cut++) {
            ByteBuffer direct = ByteBuffer.allocateDirect(text.length).put(text).flip();
            Utf8Validator v = new Utf8Validator();
            assertThat(v.feed(direct.limit(cut))).isTrue();
            assertThat(direct.position()).as("position left alone").isZero();
            assertThat(v.feed(direct.limit(text.length).position(cut))).isTrue();
            assertThat(v.complete()).isTrue();
            ByteBuffer slice = ByteBuffer.wrap(WireFrames.concat(new byte[] {(byte) 0xFF}, text), 1, text.length).slice();
            Utf8Validator w = new Utf8Validator();
            assertThat(w.feed(slice) && w.complete()).as("a slice whose array starts with an invalid byte").isTrue();
        }
        ByteBuffer bad = ByteBuffer.allocateDirect(3).put(hex("ed a0 80")).flip();
        Utf8Validator v = new Utf8Validator();
        assertThat(v.feed(bad)).isFalse();
        assertThat(v.failed()).isTrue();
        v.reset();
        assertThat(v.complete()).isTrue();
    }
}
