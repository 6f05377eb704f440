package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.HttpLimits;
import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.ConnectorMetrics;
import dev.petrel.server.config.DataRate;
import dev.petrel.server.Handler;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.config.ServerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A failed request never reaches its client as a success. The response to an upload has begun
 * (its head and part of the echoed body have left) when the request fails: its body is cut short,
 * grows past {@code maxBodySize}, stops, trickles below the minimum rate, or its client vanishes;
 * or the handler throws. Whatever the handler does then (closes its streams in a
 * try-with-resources block, lets the exception out, or swallows it and returns), the client must
 * see the response fail: no last chunk, fewer bytes than declared, a reset stream, no AJP
 * end-response. And the server counts the exchange as incomplete. On every transport, plain and
 * TLS, over HTTP/1.1, h2, h2c and AJP; {@link Failure#NONE} shows the same conversation ending whole.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FailedRequestTest {
    private static final String SECRET = "s3cret";
    /**
     * Past the response buffer (and AJP's, a packet of 8 KiB), so that echoing it commits the
     * response before the failure.
     */
    private static final int FIRST_PART = 10 * 1024;
    private static final int RESPONSE_BUFFER = 1024;
    private static final int MAX_BODY = 16 * 1024;
    private static final int DECLARED = 14 * 1024;

    /** The protocol the upload is made over. */
    enum Protocol { HTTP1, H2, H2C, AJP }

    /** A protocol over a transport variant. */
    record Variant(Transport transport, Protocol protocol) {
        @Override
        public String toString() {
            return protocol.name().toLowerCase(java.util.Locale.ROOT) + " " + transport;
        }
    }

    /** What goes wrong once the response has begun. */
    enum Failure {
        NONE, CUT_SHORT, TOO_LARGE, CLIENT_RESET, READ_TIMEOUT, TOO_SLOW, HANDLER_THROWS;

        /** The declared length of the upload, or -1 for one of unknown length (chunked, or no content-length). */
        long declared() {
            return switch (this) {
                case TOO_LARGE -> -1;
                case NONE, HANDLER_THROWS -> FIRST_PART;
                default -> DECLARED;
            };
        }
    }

    /** How the handler is written. */
    enum Style {
        /** The echo of the issue: {@code try (in; out) { in.transferTo(out); }}. */
        TRY_WITH_RESOURCES,
        /** Reads and writes piece by piece, flushing each, and lets what it meets out. */
        STREAMING,
        /** Catches what the body read throws and returns as if all went well. */
        SWALLOWING
    }

    static List<Variant> variants() {
        List<Variant> variants = new ArrayList<>();
        for (Transport transport : Transport.values()) {
            variants.add(new Variant(transport, Protocol.HTTP1));
            if (transport.tls()) {
                variants.add(new Variant(transport, Protocol.H2));
            } else {
                variants.add(new Variant(transport, Protocol.H2C));
                variants.add(new Variant(transport, Protocol.AJP));
            }
        }
        return variants;
    }

    static Stream<Arguments> cases() {
        return variants().stream().flatMap(variant -> Arrays.stream(Failure.values()).flatMap(failure -> Arrays.stream(Style.values())
                .filter(style -> style != Style.SWALLOWING || swallows(failure))
                .map(style -> Arguments.of(variant, failure, style))));
    }

    /**
     * The failures a swallowing handler is tried with: a handler that throws itself has nothing to
     * swallow, and the waits (too slow, no more bytes) fail the body as the others do, only later.
     * A client that vanishes may fail the handler's write rather than its read: a response whose
     * write failed cannot end as complete either.
     */
    private static boolean swallows(Failure failure) {
        return failure == Failure.NONE || failure == Failure.CUT_SHORT || failure == Failure.TOO_LARGE
                || failure == Failure.CLIENT_RESET;
    }

    @ParameterizedTest(name = "{0}: {1}, {2}")
    @MethodSource("cases")
    void theClientSeesTheResponseFailAndTheServerCountsItIncomplete(Variant variant, Failure failure, Style style) throws Exception {
        TestServers.skipUnlessTls(variant.transport().tls());
        try (Server server = start(variant, failure, style); Upload upload = connect(server, variant)) {
            upload.begin(failure.declared());
            upload.send(bytes(FIRST_PART));
            assertThat(upload.awaitHead()).as("the response has begun, as a success").isEqualTo(200);

            switch (failure) {
                case NONE, HANDLER_THROWS, READ_TIMEOUT -> { }
                case CUT_SHORT -> upload.cutShort();
                case TOO_LARGE -> {
                    try {
                        upload.send(bytes(2 * MAX_BODY)); // past the limit; the server may cut the connection meanwhile
                    } catch (IOException e) {
                        // cut already: the outcome says how
                    }
                }
                case CLIENT_RESET -> {
                    upload.reset();
                    awaitCounted(server, 1); // the client is gone: only the server can say what became of it
                    return;
                }
                case TOO_SLOW -> upload.trickle(Duration.ofMillis(50), 60);
            }
            Upload.Outcome outcome = upload.finish();

            if (failure == Failure.NONE) {
                assertThat(outcome.complete()).as("the whole upload, echoed whole: " + outcome.how()).isTrue();
                assertThat(outcome.bodyBytes()).isEqualTo(FIRST_PART);
                awaitCounted(server, 0);
            } else {
                assertThat(outcome.complete()).as("a failed request ended as a complete response: " + outcome.how()).isFalse();
                awaitCounted(server, 1);
            }
        }
    }

    /** The server, after the exchange: one request counted, {@code incomplete} of them incomplete. */
    private static void awaitCounted(Server server, long incomplete) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        long requests;
        long counted;
        do {
            requests = 0;
            counted = 0;
            for (ConnectorMetrics metrics : server.metrics()) {
                requests += metrics.requests();
                counted += metrics.requestsIncomplete();
            }
            if (requests == 1 && counted == incomplete) return;
            Thread.sleep(20);
        } while (System.nanoTime() - deadline < 0);
        assertThat(new long[] {requests, counted}).as("requests counted, and of them incomplete").containsExactly(1, incomplete);
    }

    private static Server start(Variant variant, Failure failure, Style style) throws IOException {
        ServerConfig config = TestServers.config()
                .responseBufferSize(RESPONSE_BUFFER)
                .limits(HttpLimits.DEFAULT.withMaxBodySize(MAX_BODY))
                .bodyReadTimeout(failure == Failure.READ_TIMEOUT ? Duration.ofMillis(500) : Duration.ofSeconds(4))
                .from(ServerConfig.DEFAULT.withMinRequestBodyRate(failure == Failure.TOO_SLOW
                        ? new DataRate(20_000, Duration.ofMillis(300)) : DataRate.OFF))
                .build();
        Handler handler = Router.builder().post("/upload", handler(style, failure == Failure.HANDLER_THROWS)).build();
        Server.Builder builder = TestServers.builder(variant.transport(), config, handler).metrics(true)
                .http2(variant.transport().tls() ? Http2Config.ENABLED : Http2Config.ENABLED.withClearText(true));
        if (variant.protocol() == Protocol.AJP) builder.ajp(0, AjpConfig.withSecret(SECRET));
        return builder.start();
    }

    private static Upload connect(Server server, Variant variant) throws IOException {
        return switch (variant.protocol()) {
            case HTTP1 -> new Http1Upload(server);
            case H2 -> new H2Upload(server, true);
            case H2C -> new H2Upload(server, false);
            case AJP -> new AjpUpload(server, SECRET);
        };
    }

    /** The echo, written in {@code style}; {@code throwAtEnd}: it throws once the whole body is echoed. */
    private static Handler handler(Style style, boolean throwAtEnd) {
        return switch (style) {
            case TRY_WITH_RESOURCES -> (req, res) -> {
                try (InputStream in = req.body(); OutputStream out = res.body()) {
                    in.transferTo(out);
                    if (throwAtEnd) throw new IllegalStateException("the handler failed after committing");
                }
            };
            case STREAMING -> (req, res) -> {
                InputStream in = req.body();
                OutputStream out = res.body();
                byte[] buffer = new byte[2048];
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
                if (throwAtEnd) throw new IllegalStateException("the handler failed after committing");
            };
            case SWALLOWING -> (req, res) -> {
                try (InputStream in = req.body(); OutputStream out = res.body()) {
                    in.transferTo(out);
                } catch (IOException | RuntimeException e) {
                    // written as if nothing could go wrong: the server must not let this end as a success
                }
            };
        };
    }

    private static byte[] bytes(int n) {
        byte[] bytes = new byte[n];
        for (int i = 0; i < n; i++) bytes[i] = (byte) ('a' + i % 26);
        return bytes;
    }
}
