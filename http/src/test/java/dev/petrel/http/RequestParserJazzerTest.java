package dev.petrel.http;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of {@link RequestParser} with Jazzer, asserting what the jqwik
 * properties of {@link RequestParserFuzzTest} assert (the same code): only NEED_MORE, COMPLETE or
 * one of {@link RequestParserFuzzTest#ERROR_STATUSES}, never an exception; a complete head ends
 * in CRLF CRLF and holds only valid tokens and values; the outcome is the same whole, cut at two
 * fuzzer-chosen points, byte by byte, and after a reset.
 *
 * <p>A plain build replays the seeds (and past findings) in
 * {@code src/test/resources/dev/petrel/http/RequestParserJazzerTestInputs/request/}; with
 * {@code JAZZER_FUZZ=1} it fuzzes, see {@code scripts/fuzz.sh}. {@link FuzzedDataProvider} takes
 * its choices from the end of the input, so a seed is the message, then one byte for the length
 * of the previous request (taken from the front), two bytes for each cut, and one byte whose low
 * bit picks {@link RequestParserFuzzTest#SMALL}, the limits that put 413, 414 and 431 within
 * reach; {@link JazzerSeeds} writes them.
 */
class RequestParserJazzerTest {
    // No CR or LF in entries: Jazzer 0.30.0 writes them unescaped, which breaks the dictionary file.
    @DictionaryEntries({"HTTP/1.1", "HTTP/1.0", "Host: ", "Content-Length: ", "Transfer-Encoding: ", "chunked",
        "Expect: ", "100-continue", "Connection: ", "close", "keep-alive", "CONNECT ", "OPTIONS * ", "http://", "%2F"})
    @FuzzTest(maxDuration = "60s")
    void request(FuzzedDataProvider data) {
        HttpLimits limits = data.consumeBoolean() ? RequestParserFuzzTest.SMALL : HttpLimits.DEFAULT;
        int[] cuts = {data.consumeInt(0, JazzerSeeds.MAX_CUT), data.consumeInt(0, JazzerSeeds.MAX_CUT)};
        byte[] previous = data.consumeBytes(data.consumeInt(0, JazzerSeeds.MAX_PREVIOUS));
        byte[] input = data.consumeRemainingAsBytes();
        RequestParserFuzzTest.assertSameOutcomeHoweverFed(input, limits, JazzerSeeds.within(cuts, input), previous);
    }
}
