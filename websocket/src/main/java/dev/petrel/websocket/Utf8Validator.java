package dev.petrel.websocket;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * An incremental UTF-8 validator (RFC 3629 section 4): bytes are fed in pieces of any size and it
 * says, as soon as the byte that breaks a sequence arrives, that the input is not UTF-8. A
 * sequence cut between two pieces is fine until the end: {@link #complete} tells whether
 * everything fed ends on a character boundary.
 *
 * <p>It rejects what the RFC's grammar excludes: bytes C0, C1 and F5 to FF, which can only start
 * overlong forms or code points above U+10FFFF; overlong three- and four-byte forms (E0 followed
 * by less than A0, F0 by less than 90); the UTF-16 surrogates (ED followed by A0 or more); code
 * points above U+10FFFF (F4 followed by 90 or more); continuation bytes where none is expected
 * and missing ones where one is. Noncharacters such as U+FFFE are valid UTF-8 and accepted.
 *
 * <p>It is a deterministic automaton over byte classes: each state says what the next byte may
 * be, so a byte is one table lookup, and runs of ASCII are skipped eight bytes at a time. The
 * WebSocket decoder runs one over every text message as its bytes arrive (RFC 6455 section 8.1:
 * fail the connection on invalid UTF-8) and over close reasons. Not thread-safe.
 */
public final class Utf8Validator {
    // Byte classes: which bytes the automaton cannot tell apart.
    private static final int ASCII = 0;          // 00..7F
    private static final int CONT_LOW = 1;       // 80..8F
    private static final int CONT_MID = 2;       // 90..9F
    private static final int CONT_HIGH = 3;      // A0..BF
    private static final int NEVER = 4;          // C0, C1, F5..FF
    private static final int LEAD_TWO = 5;       // C2..DF
    private static final int LEAD_E0 = 6;        // E0: the next byte A0..BF, or the form is overlong
    private static final int LEAD_THREE = 7;     // E1..EC, EE, EF
    private static final int LEAD_ED = 8;        // ED: the next byte 80..9F, or it is a surrogate
    private static final int LEAD_F0 = 9;        // F0: the next byte 90..BF, or the form is overlong
    private static final int LEAD_FOUR = 10;     // F1..F3
    private static final int LEAD_F4 = 11;       // F4: the next byte 80..8F, or it is above U+10FFFF
    private static final int CLASSES = 12;

    // States: what the automaton waits for.
    private static final int BOUNDARY = 0;       // a character has ended (or nothing was fed)
    private static final int NEED_ONE = 1;       // one more continuation byte
    private static final int NEED_TWO = 2;
    private static final int NEED_THREE = 3;
    private static final int AFTER_E0 = 4;
    private static final int AFTER_ED = 5;
    private static final int AFTER_F0 = 6;
    private static final int AFTER_F4 = 7;
    private static final int INVALID = 8;        // stays: the input is not UTF-8
    private static final int STATES = 9;

    private static final byte[] CLASS_OF = new byte[256];
    private static final byte[] NEXT = new byte[STATES * CLASSES];
    /** Reads eight bytes at once, in any order: only their high bits are tested. */
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;

    static {
        classify(0x00, 0x7F, ASCII);
        classify(0x80, 0x8F, CONT_LOW);
        classify(0x90, 0x9F, CONT_MID);
        classify(0xA0, 0xBF, CONT_HIGH);
        classify(0xC0, 0xC1, NEVER);
        classify(0xC2, 0xDF, LEAD_TWO);
        classify(0xE0, 0xE0, LEAD_E0);
        classify(0xE1, 0xEC, LEAD_THREE);
        classify(0xED, 0xED, LEAD_ED);
        classify(0xEE, 0xEF, LEAD_THREE);
        classify(0xF0, 0xF0, LEAD_F0);
        classify(0xF1, 0xF3, LEAD_FOUR);
        classify(0xF4, 0xF4, LEAD_F4);
        classify(0xF5, 0xFF, NEVER);

        Arrays.fill(NEXT, (byte) INVALID);
        go(BOUNDARY, ASCII, BOUNDARY);
        go(BOUNDARY, LEAD_TWO, NEED_ONE);
        go(BOUNDARY, LEAD_E0, AFTER_E0);
        go(BOUNDARY, LEAD_THREE, NEED_TWO);
        go(BOUNDARY, LEAD_ED, AFTER_ED);
        go(BOUNDARY, LEAD_F0, AFTER_F0);
        go(BOUNDARY, LEAD_FOUR, NEED_THREE);
        go(BOUNDARY, LEAD_F4, AFTER_F4);
        for (int cont : new int[] {CONT_LOW, CONT_MID, CONT_HIGH}) {
            go(NEED_ONE, cont, BOUNDARY);
            go(NEED_TWO, cont, NEED_ONE);
            go(NEED_THREE, cont, NEED_TWO);
        }
        go(AFTER_E0, CONT_HIGH, NEED_ONE);
        go(AFTER_ED, CONT_LOW, NEED_ONE);
        go(AFTER_ED, CONT_MID, NEED_ONE);
        go(AFTER_F0, CONT_MID, NEED_TWO);
        go(AFTER_F0, CONT_HIGH, NEED_TWO);
        go(AFTER_F4, CONT_LOW, NEED_TWO);
    }

    private static void classify(int from, int to, int byteClass) {
        for (int b = from; b <= to; b++) CLASS_OF[b] = (byte) byteClass;
    }

    private static void go(int state, int byteClass, int next) {
        NEXT[state * CLASSES + byteClass] = (byte) next;
    }

    private int state = BOUNDARY;

    /** A validator that has been fed nothing. */
    public Utf8Validator() {}

    /**
     * Whether {@code bytes} (a whole input, not a piece) is valid UTF-8.
     *
     * @throws IndexOutOfBoundsException when the range is outside the array
     */
    public static boolean isValid(byte[] bytes, int offset, int length) {
        Utf8Validator validator = new Utf8Validator();
        return validator.feed(bytes, offset, length) && validator.complete();
    }

    /**
     * Feeds the next {@code length} bytes of the input. Answers false as soon as they contain the
     * byte that makes the input invalid (the validator stays failed: every later call answers
     * false), true otherwise, even when they end in the middle of a sequence.
     *
     * @throws IndexOutOfBoundsException when the range is outside the array
     */
    public boolean feed(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        int s = state;
        if (s == INVALID) return false;
        int i = offset;
        int end = offset + length;
        while (i < end) {
            if (s == BOUNDARY) {
                while (end - i >= Long.BYTES && ((long) LONG.get(bytes, i) & HIGH_BITS) == 0) i += Long.BYTES;
                while (i < end && bytes[i] >= 0) i++;
                if (i == end) break;
            }
            s = NEXT[s * CLASSES + CLASS_OF[bytes[i] & 0xFF]];
            if (s == INVALID) {
                state = INVALID;
                return false;
            }
            i++;
        }
        state = s;
        return true;
    }

    /**
     * Feeds the bytes from {@code bytes}' position to its limit, leaving the position where it
     * is; the answer is {@link #feed(byte[], int, int)}'s.
     */
    public boolean feed(ByteBuffer bytes) {
        if (bytes.hasArray()) return feed(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
        if (state == INVALID) return false;
        int s = state;
        for (int i = bytes.position(); i < bytes.limit(); i++) {
            s = NEXT[s * CLASSES + CLASS_OF[bytes.get(i) & 0xFF]];
            if (s == INVALID) break;
        }
        state = s;
        return s != INVALID;
    }

    /** Whether everything fed so far is valid UTF-8 that ends on a character boundary. */
    public boolean complete() {
        return state == BOUNDARY;
    }

    /** Whether the input fed so far can no longer be valid UTF-8, whatever follows. */
    public boolean failed() {
        return state == INVALID;
    }

    /** Forgets everything fed, for the next input. */
    public void reset() {
        state = BOUNDARY;
    }
}
