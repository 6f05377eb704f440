package dev.petrel.http;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of {@link MultipartParser} with Jazzer, asserting what the jqwik
 * property {@link MultipartParserFuzzTest#outcomeDoesNotDependOnHowTheBytesArrive} asserts (the
 * same code): only NEED_MORE, COMPLETE or one of {@link MultipartParserFuzzTest#ERROR_STATUSES},
 * never an exception, never more parts or part bytes than the limits; the outcome (events, parts
 * with their headers and bodies, where it stopped) is the same whole, cut at two fuzzer-chosen
 * points into a fuzzer-sized output buffer, byte by byte, and after a reset.
 *
 * <p>A plain build replays the seeds (and past findings) in
 * {@code src/test/resources/dev/petrel/http/MultipartParserJazzerTestInputs/body/}; with
 * {@code JAZZER_FUZZ=1} it fuzzes, see {@code scripts/fuzz.sh}. The input layout is
 * {@link JazzerSeeds}'s, with three one-byte choices: the limits (low bit: small), the output
 * buffer size (1 to 8 bytes), then the boundary (an index into
 * {@link MultipartParserFuzzTest#BOUNDARIES}).
 */
class MultipartParserJazzerTest {
    // No CR or LF in entries: Jazzer 0.30.0 writes them unescaped, which breaks the dictionary file.
    @DictionaryEntries({"--bnd", "--bnd--", "Content-Disposition: form-data; name=", "; filename=", "Content-Type: ", "\"", "\\"})
    @FuzzTest(maxDuration = "60s")
    void body(FuzzedDataProvider data) {
        MultipartLimits limits = data.consumeBoolean() ? MultipartParserFuzzTest.SMALL : MultipartLimits.DEFAULT;
        int outCapacity = data.consumeInt(1, 8);
        String boundary = MultipartParserFuzzTest.BOUNDARIES.get(data.consumeInt(0, MultipartParserFuzzTest.BOUNDARIES.size() - 1));
        int[] cuts = {data.consumeInt(0, JazzerSeeds.MAX_CUT), data.consumeInt(0, JazzerSeeds.MAX_CUT)};
        byte[] previous = data.consumeBytes(data.consumeInt(0, JazzerSeeds.MAX_PREVIOUS));
        byte[] input = data.consumeRemainingAsBytes();
        MultipartParserFuzzTest.assertSameOutcomeHoweverFed(boundary, input, limits, JazzerSeeds.within(cuts, input), outCapacity, previous);
    }
}
