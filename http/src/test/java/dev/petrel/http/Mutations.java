package dev.petrel.http;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Byte-level mutations of a valid message, for fuzzing the parsers: flip a bit, replace, insert
 * or delete a byte, inject a byte that matters to HTTP framing (CR, LF, SP, HTAB, NUL, ':',
 * high bytes...), duplicate or insert a whole line, truncate, repeat a range. Each mutation is
 * plain data applied deterministically, so jqwik can shrink a failing case to a few mutations.
 */
final class Mutations {
    private Mutations() {}

    /** Bytes that change how HTTP/1.1 messages are framed or validated. */
    static final byte[] SPECIAL = {
        '\r', '\n', ' ', '\t', 0, ':', ',', ';', '=', '"', '\\', 0x7F, (byte) 0x80, (byte) 0xFF, (byte) 0xE9,
        '0', '1', '5', '9', 'a', 'f', 'F', 'x', '-', '+', '/', '?', '#', '%', '@', '[', ']', '*', 'H', 0x01, 0x1B
    };

    /** Whole lines worth injecting into a head or a trailer section. */
    static final String[] LINES = {
        "Host: x\r\n", "Host: \r\n", "Host: a b\r\n", "Content-Length: 5\r\n", "Content-Length: 0\r\n",
        "Content-Length: 5, 6\r\n", "Content-Length: 5, 5\r\n", "Content-Length: -1\r\n",
        "Content-Length: 99999999999999999999\r\n", "Transfer-Encoding: chunked\r\n",
        "Transfer-Encoding: gzip, chunked\r\n", "Transfer-Encoding: chunked, gzip\r\n", "Expect: 100-continue\r\n",
        "Expect: nope\r\n", "Connection: close\r\n", "Connection: keep-alive\r\n", " folded\r\n", "X : y\r\n",
        "\r\n", "\n", "\r", "X:\r\n", ":x\r\n", "X: \u00ff\r\n"
    };

    enum Kind { FLIP_BIT, REPLACE, INSERT, DELETE, DUPLICATE_LINE, INSERT_LINE, TRUNCATE, REPEAT_RANGE }

    /** One mutation: what, where (reduced modulo the length when applied) and with which value. */
    record Mutation(Kind kind, int at, int value) {}

    static Arbitrary<Mutation> mutation() {
        Arbitrary<Integer> value = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.integers().between(0, SPECIAL.length - 1).map(i -> SPECIAL[i] & 0xFF)),
                Tuple.of(1, Arbitraries.integers().between(0, 255)));
        return Combinators.combine(
                        Arbitraries.of(Kind.class),
                        Arbitraries.integers().between(0, Integer.MAX_VALUE),
                        value)
                .as(Mutation::new);
    }

    /** {@code base} mutated by up to {@code max} mutations. */
    static Arbitrary<byte[]> mutated(List<byte[]> corpus, int max) {
        return Combinators.combine(Arbitraries.of(corpus), mutation().list().ofMaxSize(max))
                .as(Mutations::apply);
    }

    static byte[] apply(byte[] base, List<Mutation> mutations) {
        List<Byte> bytes = new ArrayList<>(base.length + 16);
        for (byte b : base) bytes.add(b);
        for (Mutation m : mutations) applyOne(bytes, m);
        byte[] result = new byte[bytes.size()];
        for (int i = 0; i < result.length; i++) result[i] = bytes.get(i);
        return result;
    }

    private static void applyOne(List<Byte> bytes, Mutation m) {
        int size = bytes.size();
        switch (m.kind()) {
            case FLIP_BIT -> {
                if (size == 0) return;
                int i = m.at() % size;
                bytes.set(i, (byte) (bytes.get(i) ^ (1 << (m.value() & 7))));
            }
            case REPLACE -> {
                if (size == 0) return;
                bytes.set(m.at() % size, (byte) m.value());
            }
            case INSERT -> bytes.add(m.at() % (size + 1), (byte) m.value());
            case DELETE -> {
                if (size == 0) return;
                bytes.remove(m.at() % size);
            }
            case DUPLICATE_LINE -> {
                List<int[]> lines = lines(bytes);
                if (lines.isEmpty()) return;
                int[] line = lines.get(m.at() % lines.size());
                List<Byte> copy = new ArrayList<>(bytes.subList(line[0], line[1]));
                bytes.addAll(line[1], copy);
            }
            case INSERT_LINE -> {
                List<int[]> lines = lines(bytes);
                int at = lines.isEmpty() ? 0 : lines.get(m.at() % lines.size())[1];
                byte[] line = SplitParsing.bytes(LINES[m.value() % LINES.length]);
                for (int k = line.length - 1; k >= 0; k--) bytes.add(at, line[k]);
            }
            case TRUNCATE -> {
                int keep = m.at() % (size + 1);
                bytes.subList(keep, size).clear();
            }
            case REPEAT_RANGE -> {
                if (size == 0) return;
                int start = m.at() % size;
                int end = Math.min(size, start + 1 + m.value() % 16);
                List<Byte> copy = new ArrayList<>(bytes.subList(start, end));
                bytes.addAll(end, copy);
            }
        }
    }

    /** [start, end) of each line ending in LF, the LF included. */
    private static List<int[]> lines(List<Byte> bytes) {
        List<int[]> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < bytes.size(); i++) {
            if (bytes.get(i) == '\n') {
                lines.add(new int[] {start, i + 1});
                start = i + 1;
            }
        }
        return lines;
    }

    /** Arbitrary bytes, and arbitrary sequences of HTTP-ish tokens (which get further than noise). */
    static Arbitrary<byte[]> random(List<String> vocabulary, int maxSize) {
        Arbitrary<byte[]> noise = Arbitraries.bytes().array(byte[].class).ofMaxSize(maxSize);
        Arbitrary<byte[]> soup = Arbitraries.of(vocabulary).list().ofMaxSize(maxSize / 4).map(tokens -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (String token : tokens) out.writeBytes(SplitParsing.bytes(token));
            return out.toByteArray();
        });
        return Arbitraries.oneOf(noise, soup);
    }

    /** {@code bytes} as a Java string literal's content, for failure reports. */
    static String show(byte[] bytes) {
        StringBuilder s = new StringBuilder(bytes.length + 16);
        for (byte b : bytes) {
            int c = b & 0xFF;
            switch (c) {
                case '\r' -> s.append("\\r");
                case '\n' -> s.append("\\n");
                case '\t' -> s.append("\\t");
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                default -> {
                    if (c >= 0x20 && c < 0x7F) s.append((char) c);
                    else s.append(String.format("\\u%04x", c));
                }
            }
        }
        return s.toString();
    }
}
