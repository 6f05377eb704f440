package dev.petrel.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Coverage-guided fuzzing of {@link MessageInflater}, the permessage-deflate receiving half, with
 * Jazzer: any payload inflates to what a plain {@link Inflater} makes of it (with the tail
 * appended, stopping at a final block) or fails with 1007 (corrupt, or text that is not UTF-8) or
 * 1009 (past the limit), never another exception, and the same whole and cut at a fuzzer-chosen
 * point; when the peer resets its context, a second message ("Hello" compressed alone) then
 * inflates.
 *
 * <p>A plain build replays the seeds in
 * {@code src/test/resources/dev/petrel/websocket/MessageInflaterJazzerTestInputs/inflate/}; with
 * {@code JAZZER_FUZZ=1} it fuzzes, see {@code scripts/fuzz.sh}. A seed is the compressed payload,
 * then the cut (two bytes), the limit (one byte, low bit: 1000 bytes, else 64 KiB), whether the
 * message is text and whether the peer resets its context (one byte each, low bit);
 * {@link #writeSeeds} writes them, when asked:
 * {@code ./mvnw -q -pl websocket test -Dtest=MessageInflaterJazzerTest#writeSeeds -Dpetrel.seeds=src/test/resources}.
 */
class MessageInflaterJazzerTest {
    private static final byte[] TAIL = {0, 0, (byte) 0xFF, (byte) 0xFF};
    private static final byte[] HELLO = HexFormat.of().parseHex("f248cdc9c90700");

    /** Inflated bytes in hex, or the close code of the failure. */
    record Outcome(String inflated, int failure) {}

    @FuzzTest(maxDuration = "60s")
    void inflate(FuzzedDataProvider data) {
        boolean peerResets = data.consumeBoolean();
        boolean text = data.consumeBoolean();
        int limit = data.consumeBoolean() ? 1000 : 64 * 1024;
        int cut = data.consumeInt(0, 0xFFFF);
        byte[] payload = data.consumeRemainingAsBytes();
        int at = cut % (payload.length + 1);

        MessageInflater whole = new MessageInflater(peerResets);
        MessageInflater split = new MessageInflater(peerResets);
        try {
            Outcome first = inflate(whole, limit, text, List.of(payload));
            Outcome pieces = inflate(split, limit, text, List.of(Arrays.copyOf(payload, at), Arrays.copyOfRange(payload, at, payload.length)));
            // A stream that is corrupt only after its output passed the limit is both, and may fail
            // with either code: the JDK's Inflater drops what the call that meets the corruption
            // inflated, so whether the limit was seen first depends on where that call began, that
            // is, on how the input was cut (crash inputs a136813 and b7f6485). Anything else must
            // come out the same whole and cut.
            if (!bothCorruptAndTooBig(first, pieces)) assertThat(pieces).as("cut at %d", at).isEqualTo(first);
            Outcome expected = reference(payload, limit);
            if (first.failure() == 0) {
                assertThat(first.inflated()).isEqualTo(expected.inflated());
                if (peerResets) {
                    // the stream restarts after every message: a message compressed alone follows
                    assertThat(inflate(whole, limit, false, List.of(HELLO))).isEqualTo(new Outcome(HexFormat.of().formatHex("Hello".getBytes()), 0));
                }
            } else if (first.failure() == CloseCodes.MESSAGE_TOO_BIG) {
                // the reference inflates past the limit too, unless its larger output chunk ran into corrupt data first
                assertThat(expected.failure()).isIn(CloseCodes.MESSAGE_TOO_BIG, CloseCodes.INVALID_PAYLOAD);
            } else {
                assertThat(first.failure()).isEqualTo(CloseCodes.INVALID_PAYLOAD);
                if (!text) assertThat(expected.failure()).as("corrupt for the reference too").isEqualTo(CloseCodes.INVALID_PAYLOAD);
            }
        } finally {
            whole.close();
            split.close();
        }
    }

    private static boolean bothCorruptAndTooBig(Outcome a, Outcome b) {
        return a.failure() != b.failure()
                && List.of(a.failure(), b.failure()).containsAll(List.of(CloseCodes.INVALID_PAYLOAD, CloseCodes.MESSAGE_TOO_BIG));
    }

    /** Inflates one message given in {@code pieces}, as the decoder does. */
    private static Outcome inflate(MessageInflater inflater, int limit, boolean text, List<byte[]> pieces) {
        MessageBuffer out = new MessageBuffer(limit);
        Utf8Validator utf8 = text ? new Utf8Validator() : null;
        try {
            for (byte[] piece : pieces) inflater.inflate(piece, 0, piece.length, out, utf8);
            inflater.finish(out, utf8);
            if (text && !utf8.complete()) return new Outcome(null, CloseCodes.INVALID_PAYLOAD);
            return new Outcome(HexFormat.of().formatHex(out.takeBytes()), 0);
        } catch (WebSocketException e) {
            return new Outcome(null, e.closeCode());
        }
    }

    /** What a plain inflater makes of the payload and the tail: at most {@code limit} bytes, stopping at a final block. */
    private static Outcome reference(byte[] payload, int limit) {
        Inflater inflater = new Inflater(true);
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] chunk = new byte[4096];
            for (byte[] input : List.of(payload, TAIL)) {
                if (inflater.finished()) break;
                inflater.setInput(input);
                while (!inflater.finished()) {
                    int n = inflater.inflate(chunk);
                    out.write(chunk, 0, n);
                    if (out.size() > limit) return new Outcome(null, CloseCodes.MESSAGE_TOO_BIG);
                    if (n == 0) {
                        if (inflater.needsDictionary()) return new Outcome(null, CloseCodes.INVALID_PAYLOAD);
                        break;
                    }
                }
            }
            return new Outcome(HexFormat.of().formatHex(out.toByteArray()), 0);
        } catch (DataFormatException e) {
            return new Outcome(null, CloseCodes.INVALID_PAYLOAD);
        } finally {
            inflater.end();
        }
    }

    /** Rewrites the seeds under the test resources directory {@code petrel.seeds}. */
    @Test
    @EnabledIfSystemProperty(named = "petrel.seeds", matches = ".+")
    void writeSeeds() throws IOException {
        Path dir = Path.of(System.getProperty("petrel.seeds")).resolve("dev/petrel/websocket/MessageInflaterJazzerTestInputs/inflate");
        Files.createDirectories(dir);
        List<byte[]> payloads = List.of(HELLO, WireFrames.hex("0005 00faff 48656c6c6f 00"),
                HexFormat.of().parseHex("f348cdc9c9070000"), HexFormat.of().parseHex("f24805000000ffffcac9c90700"),
                compressed("{\"id\":1,\"name\":\"κόσμε\",\"tags\":[\"a\",\"b\",\"a\",\"b\"]}".repeat(20).getBytes()),
                compressed(new byte[5000]));
        for (int i = 0; i < payloads.size(); i++) {
            byte[] payload = payloads.get(i);
            ByteArrayOutputStream seed = new ByteArrayOutputStream();
            seed.writeBytes(payload);
            int cut = payload.length / 2;
            seed.write(cut & 0xFF);
            seed.write(cut >>> 8);
            seed.write(i % 2); // limit
            seed.write(i % 3 == 0 ? 1 : 0); // text
            seed.write(i % 4 == 3 ? 1 : 0); // the peer resets
            Files.write(dir.resolve(String.format("seed-%02d", i)), seed.toByteArray());
        }
    }

    /** Raw DEFLATE with a sync flush, the tail stripped: a message's payload. */
    private static byte[] compressed(byte[] message) {
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        deflater.setInput(message);
        byte[] out = new byte[message.length + 64];
        int n = deflater.deflate(out, 0, out.length, Deflater.SYNC_FLUSH);
        deflater.end();
        return Arrays.copyOf(out, n - TAIL.length);
    }
}
