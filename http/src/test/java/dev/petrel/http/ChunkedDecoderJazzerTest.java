package dev.petrel.http;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of {@link ChunkedDecoder} with Jazzer, asserting what the jqwik
 * properties of {@link ChunkedDecoderFuzzTest} assert (the same code): only NEED_MORE, COMPLETE
 * or one of {@link ChunkedDecoderFuzzTest#ERROR_STATUSES}, never an exception, never more body
 * than the limit; a complete body ends in CRLF; the outcome (body, trailers, where it stopped) is
 * the same whole, cut at two fuzzer-chosen points into a fuzzer-sized output buffer, byte by byte,
 * and after a reset.
 *
 * <p>A plain build replays the seeds (and past findings) in
 * {@code src/test/resources/dev/petrel/http/ChunkedDecoderJazzerTestInputs/body/}; with
 * {@code JAZZER_FUZZ=1} it fuzzes, see {@code scripts/fuzz.sh}. The input layout is
 * {@link JazzerSeeds}'s, with two one-byte choices: the limits (low bit: small), then the output
 * buffer size (1 to 8 bytes).
 */
class ChunkedDecoderJazzerTest {
    // No CR or LF in entries: Jazzer 0.30.0 writes them unescaped, which breaks the dictionary file.
    @DictionaryEntries({";", "=", "\"", "FFFFFFFFFFFFFFFF", "000000000000000", ": "})
    @FuzzTest(maxDuration = "60s")
    void body(FuzzedDataProvider data) {
        HttpLimits limits = data.consumeBoolean() ? ChunkedDecoderFuzzTest.SMALL : HttpLimits.DEFAULT;
        int outCapacity = data.consumeInt(1, 8);
        int[] cuts = {data.consumeInt(0, JazzerSeeds.MAX_CUT), data.consumeInt(0, JazzerSeeds.MAX_CUT)};
        byte[] previous = data.consumeBytes(data.consumeInt(0, JazzerSeeds.MAX_PREVIOUS));
        byte[] input = data.consumeRemainingAsBytes();
        ChunkedDecoderFuzzTest.assertSameOutcomeHoweverFed(input, limits, JazzerSeeds.within(cuts, input), outCapacity, previous);
    }
}
