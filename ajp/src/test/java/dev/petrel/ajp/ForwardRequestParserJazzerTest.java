package dev.petrel.ajp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.petrel.http.HttpError;
import dev.petrel.http.HttpLimits;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Coverage-guided fuzzing of {@link ForwardRequestParser} with Jazzer, asserting what the jqwik
 * properties of {@link ForwardRequestParserPropertiesTest} assert, on any payload: it is answered
 * (accepted, or refused with one of {@link ForwardRequestParserPropertiesTest#ERROR_STATUSES}),
 * never thrown, except for the documented {@link IllegalArgumentException} when the first byte is
 * not the forward-request type; the answer is the same wherever the payload lies in a larger buffer
 * and on a parser reused after another packet; a payload cut short at a fuzzer-chosen point is
 * refused with 400, or answered the same when the cut leaves everything the parser reads.
 *
 * <p>The parser takes whole packets (the transport frames them), so the cut stands in for the
 * split of the HTTP codecs' tests.
 *
 * <p>A plain build replays the seeds (and past findings) in
 * {@code src/test/resources/dev/petrel/ajp/ForwardRequestParserJazzerTestInputs/payload/}; with
 * {@code JAZZER_FUZZ=1} it fuzzes, see {@code scripts/fuzz.sh}. {@code FuzzedDataProvider} takes
 * numbers from the end and byte arrays from the front, so an input is the previous payload, the
 * payload, then backwards: the previous payload's length (one byte), the cut (two bytes, low
 * first), the padding around the payload (one byte, 0 to 15) and the limits (one byte, low bit:
 * {@link #SMALL}). {@link #writeSeeds} writes the seeds in that layout, when asked:
 * {@code ./mvnw -q -pl ajp test -Dtest=ForwardRequestParserJazzerTest#writeSeeds -Dpetrel.seeds=src/test/resources}.
 */
class ForwardRequestParserJazzerTest {
    /** Few headers and a small body, so that 431 and 413 are within reach. */
    static final HttpLimits SMALL = HttpLimits.DEFAULT.withMaxHeaderCount(4).withMaxBodySize(1000);

    private static final byte FILLER = (byte) 0xA0;

    /** The answer to one payload: the refusal, or the whole head as text. */
    record Outcome(HttpError error, String head) {}

    @FuzzTest(maxDuration = "60s")
    void payload(FuzzedDataProvider data) {
        HttpLimits limits = data.consumeBoolean() ? SMALL : HttpLimits.DEFAULT;
        int padding = data.consumeInt(0, 15);
        int cutSeed = data.consumeInt(0, 0xFFFF);
        byte[] previous = data.consumeBytes(data.consumeInt(0, 0xFF));
        byte[] payload = data.consumeRemainingAsBytes();

        if (payload.length == 0 || payload[0] != AjpPackets.FORWARD_REQUEST) {
            assertThatThrownBy(() -> new ForwardRequestParser(limits).parse(payload, 0, payload.length))
                    .isInstanceOf(IllegalArgumentException.class);
            return;
        }
        Outcome whole = parse(new ForwardRequestParser(limits), payload, 0, payload.length, limits);

        byte[] padded = new byte[padding + payload.length + padding];
        Arrays.fill(padded, FILLER);
        System.arraycopy(payload, 0, padded, padding, payload.length);
        assertThat(parse(new ForwardRequestParser(limits), padded, padding, payload.length, limits))
                .as("at offset %d", padding).isEqualTo(whole);

        ForwardRequestParser reused = new ForwardRequestParser(limits);
        if (previous.length > 0 && previous[0] == AjpPackets.FORWARD_REQUEST) reused.parse(previous, 0, previous.length);
        assertThat(parse(reused, payload, 0, payload.length, limits)).as("after another packet").isEqualTo(whole);

        int cut = 1 + cutSeed % payload.length; // the type byte stays: the caller dispatches on it
        Outcome cutShort = parse(new ForwardRequestParser(limits), payload, 0, cut, limits);
        if (!cutShort.equals(whole)) {
            assertThat(cutShort.error()).as("cut to %d of %d", cut, payload.length).isNotNull();
            assertThat(cutShort.error().status()).as("cut to %d of %d", cut, payload.length).isEqualTo(400);
        }
    }

    /** Parses and checks the answer with {@link ForwardRequestParserPropertiesTest#checkAnswer}. */
    private static Outcome parse(ForwardRequestParser parser, byte[] bytes, int offset, int length, HttpLimits limits) {
        HttpError error = parser.parse(bytes, offset, length);
        ForwardRequestParserPropertiesTest.checkAnswer(error, parser.head(), limits);
        return new Outcome(error, error == null ? describe(parser.head()) : null);
    }

    static String describe(AjpRequestHead h) {
        List<String> parts = new ArrayList<>(List.of(h.method(), h.target(), String.valueOf(h.version()), h.uri(),
                String.valueOf(h.query()), String.valueOf(h.remoteAddress()), String.valueOf(h.remoteHost()),
                String.valueOf(h.serverName()), String.valueOf(h.serverPort()), String.valueOf(h.ssl()),
                h.headers().toString(), String.valueOf(h.contentLength()), String.valueOf(h.chunked()),
                String.valueOf(h.remoteUser()), String.valueOf(h.authType()), String.valueOf(h.route()),
                String.valueOf(h.sslCertificate()), String.valueOf(h.sslCipher()), String.valueOf(h.sslSession()),
                String.valueOf(h.sslKeySize()), String.valueOf(h.secret())));
        for (int i = 0; i < h.attributeCount(); i++) parts.add(h.attributeName(i) + "=" + h.attributeValue(i));
        return String.join("|", parts);
    }

    /** A few packets as the front ends send them, each a seed alone and after the one before. */
    static List<byte[]> payloads() {
        return List.of(
                new ForwardRequestBuilder().payload(),
                new ForwardRequestBuilder().method(ForwardRequestBuilder.POST).uri("/submit")
                        .header("Host", "www.example.com").header("Content-Type", "text/plain")
                        .header("Content-Length", "5").header("X-Custom", "v").queryString("a=b&c")
                        .remoteUser("alice").authType("Basic").route("node1").secret("s3cret").payload(),
                new ForwardRequestBuilder().ssl(true).serverPort(443).header("Cookie", "id=1").sslCert("-----BEGIN CERTIFICATE-----")
                        .sslCipher("TLS_AES_128_GCM_SHA256").sslSession("abcdef").sslKeySize(256)
                        .requestAttribute("AJP_REMOTE_PORT", "51234").payload(),
                new ForwardRequestBuilder().storedMethod("PROPFIND").protocol("HTTP/1.0").uri("*")
                        .remoteHost(null).context("/app").servletPath("/s").payload(),
                new ForwardRequestBuilder().method(ForwardRequestBuilder.PUT).uri("/up")
                        .stringHeader("Transfer-Encoding", "chunked").header("Expect", "100-continue").payload());
    }

    /** Rewrites the seeds under the test resources directory {@code petrel.seeds}. */
    @Test
    @EnabledIfSystemProperty(named = "petrel.seeds", matches = ".+")
    void writeSeeds() throws IOException {
        Path dir = Path.of(System.getProperty("petrel.seeds"))
                .resolve("dev/petrel/ajp/ForwardRequestParserJazzerTestInputs/payload");
        Files.createDirectories(dir);
        List<byte[]> payloads = payloads();
        for (int i = 0; i < payloads.size(); i++) {
            byte[] payload = payloads.get(i);
            byte[] previous = i % 2 == 1 ? payloads.get(i - 1) : new byte[0];
            if (previous.length > 0xFF) throw new IllegalStateException("previous payload longer than its length byte");
            ByteArrayOutputStream seed = new ByteArrayOutputStream();
            seed.writeBytes(previous);
            seed.writeBytes(payload);
            seed.write(previous.length);
            int cut = payload.length / 2;
            seed.write(cut & 0xFF);
            seed.write(cut >>> 8);
            seed.write(i % 4); // padding
            seed.write(i % 3 == 2 ? 1 : 0); // limits
            Files.write(dir.resolve(String.format("seed-%02d", i)), seed.toByteArray());
        }
    }
}
