package dev.petrel.server.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.DateCache;
import dev.petrel.server.Handler;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.engine.connection.ConnectionInput;
import dev.petrel.server.engine.connection.InputBufferPool;
import dev.petrel.server.engine.connection.ScriptedEndpoint;
import dev.petrel.server.engine.exchange.BufferPool;
import dev.petrel.server.engine.exchange.ExchangeObserver;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The engine's read buffers (see {@link ConnectionInput}): small requests are read into the
 * connection's small buffer alone; large heads, pipelined bursts and bodies borrow the large one
 * and are read whole and in order; the large buffer goes back to the pool when the exchange is
 * over, without losing a pipelined leftover, and comes out again for the next large request.
 *
 * <p>The input pool holds one buffer, {@code pooled}, put there first: a connection that borrows
 * gets that one, so reads into it show that nothing new was allocated, and finding it in the pool
 * afterwards shows that it came back.
 */
class Http1ConnectionInputTest {
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("1994-11-06T08:49:37Z"));
    private static final String DATE = "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n";
    private static final int SMALL = ConnectionInput.SMALL_BUFFER_BYTES;
    /**
     * Echoes the body, read in pieces of odd sizes; a read must return at least one byte until
     * the end (the {@link java.io.InputStream} contract), which {@code readAllBytes} would forgive.
     */
    private static final Handler ECHO = (request, response) -> {
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        byte[] piece = new byte[3001];
        int n;
        while ((n = request.body().read(piece, 0, piece.length)) != -1) {
            if (n == 0) throw new IllegalStateException("read returned no bytes before the end of the body");
            body.write(piece, 0, n);
        }
        response.send(body.toByteArray());
    };
    /** Answers with its path and the length of its X-Pad header. */
    private static final Handler PATH = (request, response) -> {
        String pad = request.header("X-Pad");
        response.send((request.path() + (pad == null ? "" : " pad=" + pad.length())).getBytes(StandardCharsets.US_ASCII));
    };

    private final InputBufferPool smallPool = new InputBufferPool(ConnectionInput.SMALL_BUFFER_BYTES, 1);
    private final InputBufferPool pool = new InputBufferPool(Http1Connection.LARGE_INPUT_BYTES, 1);
    private final ByteBuffer pooled = ByteBuffer.allocate(Http1Connection.LARGE_INPUT_BYTES);

    Http1ConnectionInputTest() {
        pool.release(pooled);
    }

    private static Http1ExchangeParts.Pool exchangeParts(ServerConfig config) {
        return new Http1ExchangeParts.Pool(config, new DateCache(CLOCK),
                new BufferPool(Http1Connection.responseBufferBytes(config), 1), 1, ExchangeObserver.NONE);
    }

    private ScriptedEndpoint serve(Handler handler, List<String> segments, int bytesPerRead) {
        ScriptedEndpoint endpoint = new ScriptedEndpoint(segments, bytesPerRead, ScriptedEndpoint.End.EOF);
        ServerConfig config = ServerConfig.DEFAULT;
        new Http1Connection(endpoint, handler, true, config, exchangeParts(config), smallPool, pool, null).serve();
        return endpoint;
    }

    private ScriptedEndpoint serve(Handler handler, String input, int bytesPerRead) {
        return serve(handler, List.of(input), bytesPerRead);
    }

    private static String ok(String body) {
        return "HTTP/1.1 200 OK\r\n" + DATE + "Content-Length: " + body.length() + "\r\n\r\n" + body;
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: a\r\n\r\n";
    }

    private static String getPadded(String path, int padBytes) {
        return "GET " + path + " HTTP/1.1\r\nHost: a\r\nX-Pad: " + "p".repeat(padBytes) + "\r\n\r\n";
    }

    private static String post(String path, String body) {
        return "POST " + path + " HTTP/1.1\r\nHost: a\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
    }

    private static String chunked(String body, int chunkSize) {
        StringBuilder s = new StringBuilder("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int at = 0; at < body.length(); at += chunkSize) {
            String chunk = body.substring(at, Math.min(body.length(), at + chunkSize));
            s.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
        }
        return s.append("0\r\n\r\n").toString();
    }

    /** {@code n} bytes that show where each came from: a cut, a loss or a swap changes them. */
    private static String body(int n) {
        return IntStream.range(0, n).mapToObj(i -> String.valueOf((char) ('a' + (i / 7) % 26))).collect(Collectors.joining());
    }

    private static List<Integer> capacities(ScriptedEndpoint endpoint) {
        return endpoint.readInto().stream().map(ByteBuffer::capacity).toList();
    }

    private boolean pooledIsBack() {
        return pool.acquire() == pooled;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 8192})
    void answersSmallKeepAliveRequestsFromTheSmallBufferAlone(int bytesPerRead) {
        ScriptedEndpoint endpoint = serve(PATH, List.of(get("/a"), get("/b"), get("/c")), bytesPerRead);

        assertThat(endpoint.output()).isEqualTo(ok("/a") + ok("/b") + ok("/c"));
        assertThat(capacities(endpoint)).containsOnly(SMALL);
        assertThat(pool.acquire()).as("the pool's buffer, never taken").isSameAs(pooled);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 1000, 8192})
    void parsesAHeadLargerThanTheSmallBuffer(int bytesPerRead) {
        ScriptedEndpoint endpoint = serve(PATH, List.of(getPadded("/big", 4096), get("/after")), bytesPerRead);

        assertThat(endpoint.output()).isEqualTo(ok("/big pad=4096") + ok("/after"));
        assertThat(pooledIsBack()).isTrue();
    }

    @Test
    void readsTheRestOfALargeHeadIntoTheLargeBufferInOneRead() {
        ScriptedEndpoint endpoint = serve(PATH, getPadded("/big", 4096), 8192);

        assertThat(endpoint.output()).isEqualTo(ok("/big pad=4096"));
        assertThat(endpoint.readInto().get(0).capacity()).isEqualTo(SMALL);
        assertThat(endpoint.readInto().get(1)).as("the rest, after the small buffer filled to the brim").isSameAs(pooled);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 1000, 8192})
    void answersPipelinedRequestsThatStraddleTheMoveToTheLargeBufferInOrder(int bytesPerRead) {
        // 40 requests of 40 to 41 bytes: the burst fills the small buffer and one request is cut at its end
        List<String> paths = IntStream.range(0, 40).mapToObj(i -> "/r" + i).toList();
        String burst = paths.stream().map(Http1ConnectionInputTest::get).collect(Collectors.joining());

        ScriptedEndpoint endpoint = serve(PATH, burst, bytesPerRead);

        assertThat(endpoint.output()).isEqualTo(paths.stream().map(Http1ConnectionInputTest::ok).collect(Collectors.joining()));
        if (bytesPerRead > SMALL) assertThat(endpoint.readInto()).as("moved to the large buffer").anyMatch(buffer -> buffer == pooled);
        assertThat(pooledIsBack()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 1000, 8192, 65536})
    void readsFixedLengthBodiesLargerThanTheLargeBufferWhole(int bytesPerRead) {
        String first = body(20_000);
        String second = body(9_000);

        ScriptedEndpoint endpoint = serve(ECHO, post("/1", first) + post("/2", second) + get("/3"), bytesPerRead);

        assertThat(endpoint.output()).isEqualTo(ok(first) + ok(second) + ok(""));
        assertThat(pooledIsBack()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 1000, 8192, 65536})
    void readsChunkedBodiesLargerThanTheLargeBufferWhole(int bytesPerRead) {
        String first = body(20_000);
        String second = body(12_345);

        ScriptedEndpoint endpoint = serve(ECHO, chunked(first, 5000) + chunked(second, 100) + get("/3"), bytesPerRead);

        assertThat(endpoint.output()).isEqualTo(ok(first) + ok(second) + ok(""));
        assertThat(pooledIsBack()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8192, 65536})
    void sendsContinueAndReadsALargeBody(int bytesPerRead) {
        String large = body(20_000);
        String request = "POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 20000\r\n\r\n" + large;

        ScriptedEndpoint endpoint = serve(ECHO, List.of(request, get("/next")), bytesPerRead);

        assertThat(endpoint.output()).isEqualTo("HTTP/1.1 100 Continue\r\n\r\n" + ok(large) + ok(""));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8192, 65536})
    void drainsALargeBodyTheHandlerLeftAndAnswersTheNextRequest(int bytesPerRead) {
        ScriptedEndpoint fixed = serve(PATH, post("/fixed", body(20_000)) + get("/next"), bytesPerRead);
        ScriptedEndpoint chunkedBody = serve(PATH, chunked(body(20_000), 3000) + get("/next"), bytesPerRead);

        assertThat(fixed.output()).isEqualTo(ok("/fixed") + ok("/next"));
        assertThat(chunkedBody.output()).isEqualTo(ok("/") + ok("/next"));
        assertThat(pooledIsBack()).isTrue();
    }

    @Test
    void givesTheLargeBufferBackAfterTheExchangeAndReusesItForTheNextLargeRequest() {
        // apart, as if each arrived after the answer to the one before: nothing is left over between them
        ScriptedEndpoint endpoint = serve(ECHO, List.of(post("/1", body(20_000)), get("/small"), post("/2", body(15_000))),
                65536);

        assertThat(endpoint.output()).isEqualTo(ok(body(20_000)) + ok("") + ok(body(15_000)));
        List<ByteBuffer> reads = endpoint.readInto();
        List<Integer> capacities = capacities(endpoint);
        int smallRequest = 0;
        for (int i = 1; i < reads.size(); i++) {
            if (reads.get(i - 1) == pooled && reads.get(i) != pooled) {
                smallRequest = i;
                break;
            }
        }
        assertThat(smallRequest).as("back to the small buffer after the first exchange").isPositive();
        assertThat(capacities.get(smallRequest)).isEqualTo(SMALL);
        assertThat(reads.subList(smallRequest, reads.size())).as("the second large request borrowed it again")
                .anyMatch(buffer -> buffer == pooled);
        assertThat(reads).as("every large read into the pool's one buffer: nothing allocated")
                .allMatch(buffer -> buffer == pooled || buffer.capacity() == SMALL);
        assertThat(capacities.getLast()).as("waiting for the next request with the small buffer").isEqualTo(SMALL);
        assertThat(pooledIsBack()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 3000})
    void keepsAPipelinedLeftoverWhenTheExchangeEnds(int padBytes) {
        // read in one go with the large body: what follows it is left over when the first exchange ends,
        // short enough to be copied into the small buffer (100) or not (3000)
        String large = body(10_000);
        String input = post("/1", large) + getPadded("/2", padBytes) + get("/3");

        ScriptedEndpoint endpoint = serve(echoOrPath(), input, 65536);

        assertThat(endpoint.output()).isEqualTo(ok(large) + ok("/2 pad=" + padBytes) + ok("/3"));
        assertThat(endpoint.unread()).isZero();
        assertThat(capacities(endpoint).getLast()).as("back on the small buffer at the end").isEqualTo(SMALL);
        assertThat(pooledIsBack()).isTrue();
    }

    @Test
    void givesTheLargeBufferBackWhenTheConnectionEndsHoldingIt() {
        // the exchange asks to close while more than the small buffer holds is left over: settling keeps
        // the large buffer for it, and the end of the connection gives it back
        String closing = "POST / HTTP/1.1\r\nHost: a\r\nConnection: close\r\nContent-Length: 5000\r\n\r\n" + body(5000);

        ScriptedEndpoint endpoint = serve(ECHO, closing + getPadded("/ignored", 3000), 65536);

        assertThat(endpoint.output()).isEqualTo("HTTP/1.1 200 OK\r\n" + DATE + "Content-Length: 5000\r\n"
                + "Connection: close\r\n\r\n" + body(5000));
        assertThat(endpoint.closed()).isTrue();
        assertThat(pooledIsBack()).isTrue();
    }

    @Test
    void waitsWithoutAThreadHoldingOnlyTheSmallBuffer() {
        // an event-loop transport: the engine returns while a large head is only partly there
        SuspendingEndpoint endpoint = new SuspendingEndpoint();
        ServerConfig config = ServerConfig.DEFAULT;
        Http1Connection engine = new Http1Connection(endpoint, PATH, true, config, exchangeParts(config), smallPool, pool, null);
        String head = getPadded("/big", 4096);
        endpoint.feed(head.substring(0, 3000));

        assertThat(engine.serve()).as("waiting for the rest of the head").isTrue();
        assertThat(endpoint.unread()).isZero();
        assertThat(pool.acquire()).as("given back while waiting").isSameAs(pooled);
        pool.release(pooled);

        endpoint.feed(head.substring(3000) + get("/after"));
        assertThat(engine.poll()).as("the transport polls once the socket is readable").isTrue();
        assertThat(engine.serve()).isTrue();

        assertThat(endpoint.output()).isEqualTo(ok("/big pad=4096") + ok("/after"));
        assertThat(pooledIsBack()).isTrue();
    }

    @Test
    void anIdleConnectionOnAnEventLoopHoldsNoReadBufferAndNoExchangeParts() {
        SuspendingEndpoint endpoint = new SuspendingEndpoint();
        ServerConfig config = ServerConfig.DEFAULT;
        Http1ExchangeParts.Pool parts = exchangeParts(config);
        Http1ExchangeParts set = parts.acquire();
        parts.release(set);
        ByteBuffer small = ByteBuffer.allocate(ConnectionInput.SMALL_BUFFER_BYTES);
        smallPool.release(small);
        Http1Connection engine = new Http1Connection(endpoint, PATH, true, config, parts, smallPool, pool, null);

        for (String path : List.of("/one", "/two")) {
            endpoint.feed(get(path));
            assertThat(engine.poll()).isTrue();
            assertThat(engine.serve()).as("waiting for the next request").isTrue();
            assertThat(smallPool.acquire()).as("the small buffer, back while idle").isSameAs(small);
            assertThat(parts.acquire()).as("the exchange's parts, back while idle").isSameAs(set);
            smallPool.release(small);
            parts.release(set);
        }
        assertThat(endpoint.output()).isEqualTo(ok("/one") + ok("/two"));
    }

    @Test
    void theExchangePartsOfADetachedResponseAreNotPooledAgain() throws Exception {
        // the handler's thread may still hold the request and response: another connection must not get them
        Handler detaching = (request, response) -> {
            var detached = response.detach(java.time.Duration.ofSeconds(5));
            Thread.ofPlatform().start(() -> {
                try {
                    response.contentType("text/plain").send("late\n");
                    detached.complete();
                } catch (Exception e) {
                    detached.fail(e);
                }
            });
        };
        ScriptedEndpoint endpoint = new ScriptedEndpoint(List.of(get("/late") + get("/again")), 65536, ScriptedEndpoint.End.EOF);
        ServerConfig config = ServerConfig.DEFAULT;
        Http1ExchangeParts.Pool parts = exchangeParts(config);
        Http1ExchangeParts set = parts.acquire();
        parts.release(set);
        new Http1Connection(endpoint, detaching, true, config, parts, smallPool, pool, null).serve();

        assertThat(endpoint.output()).contains("late\n").doesNotContain("HTTP/1.1 5");
        assertThat(parts.acquire()).as("a fresh set, never one a detached response had").isNotSameAs(set);
    }

    /** Echoes a body, answers a GET with its path and pad length. */
    private static Handler echoOrPath() {
        return (request, response) -> {
            if (request.method().equals("POST")) ECHO.handle(request, response);
            else PATH.handle(request, response);
        };
    }
}
