package dev.petrel.bench.soak;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.random.RandomGenerator;
import java.util.zip.GZIPInputStream;
import javax.net.ssl.SSLContext;

/**
 * The soak's own clients, which check every byte: each operation sends one request (or opens one
 * WebSocket session) on a route and returns its {@link SoakOutcome}. A success is a status and
 * bytes that are exactly what {@link SoakContent} says; an error status, a reset or a timeout is a
 * visible failure; a success status with other bytes is a lost request.
 *
 * <p>HTTP/1.1 and h2 over TLS go through the JDK's {@link HttpClient} (one per protocol, so each
 * keeps its connections as a browser would); h2c by prior knowledge, which the JDK's client does not
 * speak, through {@code curl --http2-prior-knowledge}, a process per request.
 */
final class SoakClients implements AutoCloseable {
    static final Duration TIMEOUT = Duration.ofSeconds(15);
    private final HttpClient h1;
    private final HttpClient h1Tls;
    private final HttpClient h2Tls;

    SoakClients(SSLContext trust) {
        this.h1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        this.h1Tls = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(trust).connectTimeout(Duration.ofSeconds(5)).build();
        this.h2Tls = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(trust).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Runs {@code operation} on {@code route} with sizes drawn from {@code random}. */
    SoakOutcome run(SoakRoute route, String operation, RandomGenerator random) throws InterruptedException {
        if (route.protocol() == SoakRoute.Protocol.H2C) return Curl.run(route, operation, random);
        return switch (operation) {
            case "ping" -> expect(route, operation, get(route, "/ping"), 200, "pong".getBytes(StandardCharsets.US_ASCII), false);
            case "download" -> {
                int size = downloadSize(random);
                long seed = random.nextLong(1, Long.MAX_VALUE);
                yield expect(route, operation, get(route, "/download?size=" + size + "&seed=" + seed), 200, SoakContent.bytes(seed, size), false);
            }
            case "upload" -> upload(route, random);
            case "range" -> {
                byte[] file = FILE;
                int from = random.nextInt(file.length - 1);
                int to = Math.min(file.length - 1, from + random.nextInt(1, 64 * 1024));
                yield expect(route, operation, get(route, "/files/" + SoakContent.BINARY_FILE).header("Range", "bytes=" + from + "-" + to),
                        206, Arrays.copyOfRange(file, from, to + 1), false);
            }
            case "gzip" -> expect(route, operation, get(route, "/files/" + SoakContent.TEXT_FILE).header("Accept-Encoding", "gzip"),
                    200, PAGE, true);
            case "websocket" -> webSocket(route, random);
            default -> throw new IllegalArgumentException(operation);
        };
    }

    static final byte[] FILE = SoakContent.binaryFile();
    static final byte[] PAGE = SoakContent.textFile();

    /** Mostly small, now and then a few MiB, as real downloads are. */
    static int downloadSize(RandomGenerator random) {
        return random.nextInt(10) == 0 ? random.nextInt(1 << 20, 4 << 20) : random.nextInt(0, 64 * 1024);
    }

    private static HttpRequest.Builder get(SoakRoute route, String path) {
        return HttpRequest.newBuilder(URI.create(route.scheme() + "://127.0.0.1:" + route.port() + path)).timeout(TIMEOUT);
    }

    private HttpClient client(SoakRoute route) {
        return switch (route.protocol()) {
            case H1 -> h1;
            case H1_TLS -> h1Tls;
            case H2_TLS -> h2Tls;
            case H2C -> throw new IllegalArgumentException("h2c goes through curl");
        };
    }

    private SoakOutcome expect(SoakRoute route, String operation, HttpRequest.Builder request, int status, byte[] expected, boolean gzip)
            throws InterruptedException {
        long start = System.nanoTime();
        try {
            HttpResponse<byte[]> response = client(route).send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != status) {
                return SoakOutcome.failed(route, operation, start, "status " + response.statusCode() + " (" + status + " expected)");
            }
            byte[] body = response.body();
            // a server may send the page as it is (Tomcat's AJP connector does not compress): the bytes are what count
            if (gzip && "gzip".equals(response.headers().firstValue("Content-Encoding").orElse(null))) {
                try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
                    body = in.readAllBytes();
                }
            }
            return SoakOutcome.compared(route, operation, start, status, body, expected);
        } catch (IOException e) {
            return SoakOutcome.failed(route, operation, start, e.toString());
        }
    }

    /** A body of a drawn size with its digest announced; sent chunked (of unknown length) every other time on HTTP/1.1. */
    private SoakOutcome upload(SoakRoute route, RandomGenerator random) throws InterruptedException {
        int size = random.nextInt(8) == 0 ? random.nextInt(1 << 20, 3 << 20) : random.nextInt(0, 128 * 1024);
        byte[] body = SoakContent.bytes(random.nextLong(1, Long.MAX_VALUE), size);
        String digest = SoakContent.sha256(body);
        HttpRequest.BodyPublisher publisher = random.nextBoolean() ? HttpRequest.BodyPublishers.ofByteArray(body)
                : HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body));
        HttpRequest.Builder request = get(route, "/upload").header(SoakContent.DIGEST_HEADER, digest).POST(publisher);
        return expect(route, "upload", request, 200, digest.getBytes(StandardCharsets.US_ASCII), false);
    }

    /** Opens a session, sends a few text and binary messages one after another, checks each echo, closes. */
    private SoakOutcome webSocket(SoakRoute route, RandomGenerator random) throws InterruptedException {
        long start = System.nanoTime();
        URI uri = URI.create((route.scheme().equals("https") ? "wss" : "ws") + "://127.0.0.1:" + route.port() + "/ws/echo");
        EchoListener listener = new EchoListener();
        WebSocket socket = null;
        try {
            socket = client(route).newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5)).buildAsync(uri, listener)
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            int messages = random.nextInt(1, 6);
            for (int i = 0; i < messages; i++) {
                CompletableFuture<Object> echo = listener.next();
                Object sent;
                if (random.nextBoolean()) {
                    String text = "soak " + i + " " + Long.toHexString(random.nextLong()).repeat(random.nextInt(1, 200));
                    socket.sendText(text, true).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                    sent = text;
                } else {
                    byte[] bytes = SoakContent.bytes(random.nextLong(1, Long.MAX_VALUE), random.nextInt(1, 64 * 1024));
                    socket.sendBinary(ByteBuffer.wrap(bytes), true).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                    sent = bytes;
                }
                Object back = echo.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                boolean same = sent instanceof byte[] b ? back instanceof byte[] r && Arrays.equals(b, r) : sent.equals(back);
                if (!same) return SoakOutcome.lost(route, "websocket", start, "message " + i + " came back different");
            }
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            listener.closed.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            return SoakOutcome.ok(route, "websocket", start);
        } catch (ExecutionException | TimeoutException e) {
            if (socket != null) socket.abort();
            return SoakOutcome.failed(route, "websocket", start, e.getCause() == null ? e.toString() : e.getCause().toString());
        }
    }

    /** Collects whole messages (text or binary, however fragmented) and the close. */
    private static final class EchoListener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();
        private final java.io.ByteArrayOutputStream binary = new java.io.ByteArrayOutputStream();
        private volatile CompletableFuture<Object> pending = new CompletableFuture<>();
        final CompletableFuture<Void> closed = new CompletableFuture<>();

        CompletableFuture<Object> next() {
            pending = new CompletableFuture<>();
            return pending;
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                pending.complete(text.toString());
                text.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
            byte[] chunk = new byte[data.remaining()];
            data.get(chunk);
            binary.writeBytes(chunk);
            if (last) {
                pending.complete(binary.toByteArray());
                binary.reset();
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(null);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            pending.completeExceptionally(error);
            closed.completeExceptionally(error);
        }
    }

    @Override
    public void close() {
        h1.close();
        h1Tls.close();
        h2Tls.close();
    }
}
