package dev.petrel.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Masking} against the definition of RFC 6455 section 5.3, one byte at a time. */
class MaskingTest {
    @Test
    void everyLengthOffsetAndKeyIndexMatchesTheDefinition() {
        Random random = new Random(6455);
        for (int length = 0; length <= 40; length++) {
            for (int offset = 0; offset < 9; offset++) {
                for (int keyIndex = 0; keyIndex < 4; keyIndex++) {
                    int key = random.nextInt();
                    byte[] bytes = new byte[offset + length + 3];
                    random.nextBytes(bytes);
                    byte[] expected = bytes.clone();
                    for (int i = 0; i < length; i++) {
                        expected[offset + i] ^= (byte) (key >>> (24 - 8 * ((keyIndex + i) & 3)));
                    }
                    int next = Masking.apply(bytes, offset, length, key, keyIndex);
                    assertThat(bytes).as("length %d, offset %d, key index %d", length, offset, keyIndex).isEqualTo(expected);
                    assertThat(next).isEqualTo((keyIndex + length) & 3);
                }
            }
        }
    }

    @Test
    void maskingInPiecesEqualsMaskingWhole() {
        Random random = new Random(7);
        byte[] original = new byte[100];
        random.nextBytes(original);
        int key = 0x37FA_213D;
        byte[] whole = original.clone();
        Masking.apply(whole, 0, whole.length, key, 0);
        for (int cut = 0; cut <= original.length; cut++) {
            byte[] pieces = original.clone();
            int index = Masking.apply(pieces, 0, cut, key, 0);
            Masking.apply(pieces, cut, pieces.length - cut, key, index);
            assertThat(pieces).as("cut at %d", cut).isEqualTo(whole);
        }
        Masking.apply(whole, 0, whole.length, key, 0);
        assertThat(whole).as("masking twice gives the original").isEqualTo(original);
    }
}
