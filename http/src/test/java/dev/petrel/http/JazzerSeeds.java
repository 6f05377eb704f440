package dev.petrel.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * What the Jazzer fuzz tests of this package read besides the message, and the seed files that
 * start the fuzzer from valid messages.
 *
 * <p>{@code FuzzedDataProvider} takes numbers from the end of its input and byte arrays from the
 * front, so a fuzz input is: the previous message (for the reset check), the message, then the
 * choices backwards: the length of the previous message (one byte), the second and the first cut
 * (two bytes each, low byte first), and the one-byte choices (limits, output size, boundary) last. The seeds
 * are written from the jqwik corpora by {@link #writeSeeds}, so they follow this layout exactly; it
 * runs only when asked (the directory is relative to {@code http/}):
 *
 * <pre>
 * ./mvnw -q -pl http test -Dtest=JazzerSeeds -Dpetrel.seeds=src/test/resources
 * </pre>
 */
class JazzerSeeds {
    /** A cut is read as two bytes, then taken modulo the input length + 1. */
    static final int MAX_CUT = 0xFFFF;
    /** The previous message's length is read as one byte. */
    static final int MAX_PREVIOUS = 0xFF;

    /** The cuts, each brought within 0..{@code input.length}. */
    static int[] within(int[] cuts, byte[] input) {
        int[] within = new int[cuts.length];
        for (int i = 0; i < cuts.length; i++) within[i] = cuts[i] % (input.length + 1);
        return within;
    }

    /**
     * A fuzz input that reads back as {@code previous}, {@code message}, the two cuts and the
     * one-byte choices (given in the order the test reads them).
     */
    static byte[] seed(byte[] previous, byte[] message, int firstCut, int secondCut, int... oneByteChoices) {
        if (previous.length > MAX_PREVIOUS) throw new IllegalArgumentException("previous message too long");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(previous);
        out.writeBytes(message);
        out.write(previous.length);
        for (int cut : new int[] {secondCut, firstCut}) {
            out.write(cut & 0xFF);
            out.write(cut >>> 8);
        }
        for (int i = oneByteChoices.length - 1; i >= 0; i--) out.write(oneByteChoices[i]);
        return out.toByteArray();
    }

    /** Rewrites the seeds of the fuzz tests under the test resources directory {@code petrel.seeds}. */
    @Test
    @EnabledIfSystemProperty(named = "petrel.seeds", matches = ".+")
    void writeSeeds() throws IOException {
        Path resources = Path.of(System.getProperty("petrel.seeds")).resolve("dev/petrel/http");
        write(resources.resolve("RequestParserJazzerTestInputs/request"), RequestParserFuzzTest.CORPUS, false);
        write(resources.resolve("ChunkedDecoderJazzerTestInputs/body"), ChunkedDecoderFuzzTest.CORPUS, true);
        writeMultipart(resources.resolve("MultipartParserJazzerTestInputs/body"));
    }

    /**
     * One seed per multipart corpus body, cut and varied as {@link #write} does, with the index of
     * its boundary as the last choice; the previous body is too long for a seed when it is over
     * {@link #MAX_PREVIOUS} bytes, and then there is none.
     */
    private static void writeMultipart(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<MultipartParserFuzzTest.Sample> corpus = MultipartParserFuzzTest.CORPUS;
        for (int i = 0; i < corpus.size(); i++) {
            byte[] message = corpus.get(i).body();
            byte[] previous = i % 2 == 1 ? corpus.get(i - 1).body() : new byte[0];
            if (previous.length > MAX_PREVIOUS) previous = new byte[0];
            int boundary = MultipartParserFuzzTest.BOUNDARIES.indexOf(corpus.get(i).boundary());
            byte[] seed = seed(previous, message, message.length / 3, 2 * message.length / 3, i % 3 == 2 ? 1 : 0, 1 + i % 8, boundary);
            Files.write(dir.resolve(String.format("seed-%02d", i)), seed);
        }
    }

    /**
     * One seed per corpus message, cut in thirds: every other one after the message before it,
     * every third with the small limits; for bodies, outputs of 1 to 8 bytes.
     */
    private static void write(Path dir, List<byte[]> corpus, boolean body) throws IOException {
        Files.createDirectories(dir);
        for (int i = 0; i < corpus.size(); i++) {
            byte[] message = corpus.get(i);
            byte[] previous = i % 2 == 1 ? corpus.get(i - 1) : new byte[0];
            int small = i % 3 == 2 ? 1 : 0;
            int[] choices = body ? new int[] {small, 1 + i % 8} : new int[] {small};
            byte[] seed = seed(previous, message, message.length / 3, 2 * message.length / 3, choices);
            Files.write(dir.resolve(String.format("seed-%02d", i)), seed);
        }
    }
}
