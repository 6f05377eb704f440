package dev.petrel.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http2.FrameFeeding.Frame;
import dev.petrel.http2.FrameFeeding.Outcome;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Frames written by {@link FrameWriter} and read back by {@link FrameReader}, cut anywhere, give
 * back what was written; and any bytes at all give NEED_MORE, COMPLETE or ERROR, never an
 * exception, the same however they arrive.
 */
class FrameRoundTripTest {
    /** One frame (or field block) to write, with the frames the reader should give back. */
    interface Spec {
        void write(ByteBuffer out);

        List<Frame> expected();
    }

    static Frame expect(int type, int flags, int streamId, byte[] content, int length) {
        return new Frame(type, flags, streamId, length, HexFormat.of().formatHex(content), List.of(), 0, 0, 0, 0, 0, false, 0, 16, false);
    }

    record Data(int stream, byte[] data, boolean end) implements Spec {
        public void write(ByteBuffer out) {
            FrameWriter.data(out, stream, data, 0, data.length, end);
        }

        public List<Frame> expected() {
            return List.of(expect(Frames.DATA, end ? Frames.FLAG_END_STREAM : 0, stream, data, data.length));
        }
    }

    record Headers(int stream, byte[] block, boolean end, int maxFrameSize) implements Spec {
        public void write(ByteBuffer out) {
            FrameWriter.headers(out, stream, block, 0, block.length, end, maxFrameSize);
        }

        public List<Frame> expected() {
            List<Frame> frames = new ArrayList<>();
            int done = 0;
            do {
                int n = Math.min(maxFrameSize, block.length - done);
                boolean last = done + n == block.length;
                int type = done == 0 ? Frames.HEADERS : Frames.CONTINUATION;
                int flags = (last ? Frames.FLAG_END_HEADERS : 0) | (done == 0 && end ? Frames.FLAG_END_STREAM : 0);
                byte[] piece = java.util.Arrays.copyOfRange(block, done, done + n);
                Frame f = expect(type, flags, stream, piece, n);
                frames.add(new Frame(f.type(), f.flags(), f.streamId(), f.length(), f.content(), f.settings(), 0, 0, 0, 0, 0,
                        false, 0, 16, !last));
                done += n;
            } while (done < block.length);
            return frames;
        }
    }

    record Settings(List<Integer> ids, List<Long> values) implements Spec {
        Http2Settings settings() {
            Http2Settings s = new Http2Settings();
            for (int i = 0; i < ids.size(); i++) s.set(ids.get(i), values.get(i));
            return s;
        }

        public void write(ByteBuffer out) {
            FrameWriter.settings(out, settings());
        }

        public List<Frame> expected() {
            Http2Settings s = settings();
            List<Long> pairs = new ArrayList<>();
            for (int id = 1; id <= 6; id++) {
                if (!ids.contains(id)) continue;
                pairs.add((long) id);
                pairs.add(s.value(id));
            }
            return List.of(new Frame(Frames.SETTINGS, 0, 0, pairs.size() * 3, "", pairs, 0, 0, 0, 0, 0, false, 0, 16, false));
        }
    }

    record Ping(boolean ack, long data) implements Spec {
        public void write(ByteBuffer out) {
            FrameWriter.ping(out, ack, data);
        }

        public List<Frame> expected() {
            return List.of(new Frame(Frames.PING, ack ? Frames.FLAG_ACK : 0, 0, 8, "", List.of(), data, 0, 0, 0, 0, false, 0, 16, false));
        }
    }

    record Goaway(int last, Http2ErrorCode code, byte[] debug) implements Spec {
        public void write(ByteBuffer out) {
            FrameWriter.goaway(out, last, code, debug);
        }

        public List<Frame> expected() {
            return List.of(new Frame(Frames.GOAWAY, 0, 0, 8 + debug.length, HexFormat.of().formatHex(debug), List.of(), 0,
                    code.code(), last, 0, 0, false, 0, 16, false));
        }
    }

    record WindowUpdate(int stream, int increment) implements Spec {
        public void write(ByteBuffer out) {
            FrameWriter.windowUpdate(out, stream, increment);
        }

        public List<Frame> expected() {
            return List.of(new Frame(Frames.WINDOW_UPDATE, 0, stream, 4, "", List.of(), 0, 0, 0, increment, 0, false, 0, 16, false));
        }
    }

    record Rst(int stream, Http2ErrorCode code) implements Spec {
        public void write(ByteBuffer out) {
            FrameWriter.rstStream(out, stream, code);
        }

        public List<Frame> expected() {
            return List.of(new Frame(Frames.RST_STREAM, 0, stream, 4, "", List.of(), 0, code.code(), 0, 0, 0, false, 0, 16, false));
        }
    }

    @Provide
    Arbitrary<Spec> specs() {
        Arbitrary<Integer> streams = Arbitraries.integers().between(1, Integer.MAX_VALUE);
        Arbitrary<byte[]> payloads = Arbitraries.bytes().array(byte[].class).ofMaxSize(100);
        Arbitrary<Http2ErrorCode> codes = Arbitraries.of(Http2ErrorCode.class);
        Arbitrary<Settings> settings = Arbitraries.integers().between(1, 6).set().ofMaxSize(6).flatMap(idSet -> {
            List<Integer> ids = List.copyOf(idSet);
            List<Arbitrary<Long>> values = ids.stream().map(FrameRoundTripTest::valuesOf).toList();
            return Combinators.combine(values).as(vs -> new Settings(ids, vs));
        });
        return Arbitraries.oneOf(
                Combinators.combine(streams, payloads, Arbitraries.of(true, false)).as(Data::new),
                Combinators.combine(streams, payloads, Arbitraries.of(true, false), Arbitraries.integers().between(1, 40)).as(Headers::new),
                settings,
                Combinators.combine(Arbitraries.of(true, false), Arbitraries.longs()).as(Ping::new),
                Combinators.combine(Arbitraries.integers().between(0, Integer.MAX_VALUE), codes, payloads).as(Goaway::new),
                Combinators.combine(Arbitraries.integers().between(0, Integer.MAX_VALUE), Arbitraries.integers().between(1, Integer.MAX_VALUE))
                        .as(WindowUpdate::new),
                Combinators.combine(streams, codes).as(Rst::new));
    }

    @Provide
    Arbitrary<List<Spec>> specLists() {
        return specs().list().ofMinSize(1).ofMaxSize(6);
    }

    static Arbitrary<Long> valuesOf(int id) {
        return switch (id) {
            case Http2Settings.ENABLE_PUSH -> Arbitraries.longs().between(0, 1);
            case Http2Settings.INITIAL_WINDOW_SIZE -> Arbitraries.longs().between(0, Integer.MAX_VALUE);
            case Http2Settings.MAX_FRAME_SIZE -> Arbitraries.longs().between(Frames.DEFAULT_MAX_FRAME_SIZE, Frames.MAX_MAX_FRAME_SIZE);
            default -> Arbitraries.longs().between(0, 0xFFFF_FFFFL);
        };
    }

    @Property
    void writtenFramesReadBackTheSameHoweverCut(
            @ForAll("specLists") List<Spec> specs,
            @ForAll @Size(max = 8) List<@IntRange(min = 0, max = 100_000) Integer> cutSeeds) {
        ByteBuffer out = ByteBuffer.allocate(1 << 16);
        List<Frame> expected = new ArrayList<>();
        for (Spec spec : specs) {
            spec.write(out);
            expected.addAll(spec.expected());
        }
        byte[] bytes = java.util.Arrays.copyOf(out.array(), out.position());
        int[] cuts = cutSeeds.stream().mapToInt(seed -> seed % (bytes.length + 1)).toArray();
        Outcome outcome = FrameFeeding.feed(new FrameReader(Frames.DEFAULT_MAX_FRAME_SIZE), FrameFeeding.cut(bytes, cuts));
        assertThat(outcome.failed()).as("error %s", outcome.lastError()).isFalse();
        assertThat(outcome.frames()).isEqualTo(expected);
        assertThat(outcome.consumed()).isEqualTo(bytes.length);
    }

    @Provide
    Arbitrary<byte[]> noise() {
        // valid frames with bytes flipped, and plain random bytes: both reach deep into the reader
        Arbitrary<byte[]> mutated = specs().list().ofMinSize(1).ofMaxSize(4).flatMap(specs -> {
            ByteBuffer out = ByteBuffer.allocate(1 << 16);
            specs.forEach(s -> s.write(out));
            byte[] valid = java.util.Arrays.copyOf(out.array(), out.position());
            return Arbitraries.integers().between(0, valid.length - 1).list().ofMinSize(1).ofMaxSize(4)
                    .flatMap(positions -> Arbitraries.bytes().list().ofSize(positions.size()).map(values -> {
                        byte[] b = valid.clone();
                        for (int i = 0; i < positions.size(); i++) b[positions.get(i)] = values.get(i);
                        return b;
                    }));
        });
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(200);
        return Arbitraries.oneOf(mutated, random);
    }

    @Property
    void anyBytesGiveAStatusNeverAnExceptionTheSameHoweverFed(
            @ForAll("noise") byte[] input, @ForAll @IntRange(min = 0, max = 100_000) int cutSeed) {
        // FrameFeeding.feed turns an exception out of read into a failure, and checks each status's promises
        Outcome whole = FrameFeeding.feed(new FrameReader(Frames.DEFAULT_MAX_FRAME_SIZE), List.of(input));
        Outcome split = FrameFeeding.feed(new FrameReader(Frames.DEFAULT_MAX_FRAME_SIZE), FrameFeeding.cut(input, cutSeed % (input.length + 1)));
        Outcome bytewise = FrameFeeding.feed(new FrameReader(Frames.DEFAULT_MAX_FRAME_SIZE), FrameFeeding.feedings(input).getLast());
        assertThat(split).isEqualTo(whole);
        if (input.length > 0) assertThat(bytewise).isEqualTo(whole);
    }
}
