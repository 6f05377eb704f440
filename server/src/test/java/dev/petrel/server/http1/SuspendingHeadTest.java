package dev.petrel.server.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.DateCache;
import dev.petrel.http.HttpLimits;
import dev.petrel.server.Handler;
import dev.petrel.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The engine on an endpoint that waits without a thread, driven in memory the way an event loop
 * drives it: {@code serve()} returns while no request has arrived, {@code poll()} takes in what
 * has arrived and says when {@code serve()} has work, and {@code wakeDeadline()} says when
 * {@code serve()} must run anyway to time the connection out. Between requests the engine must
 * never block on a read: {@link SuspendingEndpoint} records any attempt, checked after each test.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SuspendingHeadTest {
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("1994-11-06T08:49:37Z"));
    private static final String DATE = "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n";
    private static final Duration LONG = Duration.ofSeconds(30);

    private final SuspendingEndpoint endpoint = new SuspendingEndpoint();

    /** Answers with what it was asked, body included. */
    private final Handler echo = (request, response) -> {
        endpoint.exchangeStarted();
        String body = new String(request.bodyBytes(), StandardCharsets.ISO_8859_1);
        response.contentType("text/plain").send(request.method() + " " + request.path() + " q=" + request.query()
                + " piece=" + request.header("X-Piece") + " body=" + body);
    };

    @AfterEach
    void neverBlockedOnAReadBetweenRequests() {
        assertThat(endpoint.misuses()).isEmpty();
    }

    private Http1Connection engine(Duration headerTimeout, Duration idleTimeout) {
        ServerConfig config = ServerConfig.DEFAULT.withHeaderTimeout(headerTimeout).withIdleTimeout(idleTimeout)
                .withBodyReadTimeout(LONG).withWriteTimeout(LONG);
        return new Http1Connection(endpoint, echo, config, new DateCache(CLOCK));
    }

    private Http1Connection engine() {
        return engine(LONG, LONG);
    }

    private static String ok(String body) {
        return "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n" + DATE + "Content-Length: " + body.length() + "\r\n\r\n" + body;
    }

    /** Sleeps until {@code deadline} ({@link System#nanoTime()}) has passed. */
    private static void waitPast(long deadline) throws InterruptedException {
        while (System.nanoTime() - deadline <= 0) Thread.sleep(10);
    }

    @Test
    void serveReturnsWaitingWhenNoBytesHaveArrived() {
        Http1Connection engine = engine();

        assertThat(engine.serve()).as("waiting for the first request").isTrue();
        assertThat(endpoint.readAvailableCalls()).as("looked for bytes without waiting").isPositive();
        assertThat(endpoint.output()).isEmpty();
        assertThat(endpoint.closed()).isFalse();

        // a wake-up with still nothing there (the loop may call serve() early) suspends again
        assertThat(engine.serve()).isTrue();
        assertThat(endpoint.closed()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 5, 13, 1000})
    void headFedInPiecesAcrossPollsIsParsedWhole(int pieceSize) {
        String request = "GET /a%20b?x=1 HTTP/1.1\r\nHost: a\r\nX-Piece: one, two\r\n\r\n";
        Http1Connection engine = engine();
        assertThat(engine.serve()).isTrue();
        assertThat(engine.poll()).as("nothing new has arrived").isFalse();
        assertThat(engine.poll()).isFalse();

        for (int off = 0; off < request.length(); off += pieceSize) {
            int end = Math.min(off + pieceSize, request.length());
            endpoint.feed(request.substring(off, end));
            boolean last = end == request.length();
            assertThat(engine.poll()).as("poll after byte %d of %d", end, request.length()).isEqualTo(last);
            assertThat(endpoint.output()).as("poll never writes").isEmpty();
        }

        assertThat(engine.serve()).as("answered, then waiting for the next request").isTrue();
        assertThat(endpoint.takeOutput()).isEqualTo(ok("GET /a b q=x=1 piece=one, two body="));
        assertThat(endpoint.closed()).isFalse();

        // the next request, fed in one piece, is taken in and answered the same way
        endpoint.feed("GET /next HTTP/1.1\r\nHost: a\r\n\r\n");
        assertThat(engine.poll()).isTrue();
        assertThat(engine.serve()).isTrue();
        assertThat(endpoint.takeOutput()).isEqualTo(ok("GET /next q=null piece=null body="));
        assertThat(endpoint.unread()).isZero();
    }

    @Test
    void bodyArrivingAfterTheHeadIsReadInsideTheExchange() {
        Http1Connection engine = engine();
        assertThat(engine.serve()).isTrue();
        endpoint.feed("POST /up HTTP/1.1\r\nHost: a\r\n");
        assertThat(engine.poll()).isFalse();
        endpoint.feed("Content-Length: 5\r\n\r\n");
        assertThat(engine.poll()).isTrue();
        endpoint.feed("hello"); // after the head was taken in: the handler's read gets it from the endpoint

        assertThat(engine.serve()).isTrue();
        assertThat(endpoint.output()).isEqualTo(ok("POST /up q=null piece=null body=hello"));
        assertThat(endpoint.closed()).isFalse();
    }

    @Test
    void onTheLoopAReadThatLeftTheSocketDryIsNotRepeatedUntilTheTransportPolls() {
        // a non-blocking handler: the loop serves it inline, and its selector watches for more
        Http1Connection engine = new Http1Connection(endpoint, Handler.nonBlocking(echo), ServerConfig.DEFAULT, new DateCache(CLOCK));
        assertThat(engine.serve()).isTrue();
        endpoint.feed("GET /1 HTTP/1.1\r\nHost: a\r\n\r\n");
        assertThat(engine.poll()).isTrue();
        int readsBefore = endpoint.readAvailableCalls();

        assertThat(engine.serve()).as("answered, then waiting").isTrue();
        assertThat(endpoint.takeOutput()).isEqualTo(ok("GET /1 q=null piece=null body="));
        assertThat(endpoint.readAvailableCalls()).as("no second look at a socket read dry").isEqualTo(readsBefore);
        assertThat(engine.poll()).as("polling reads again, finding nothing").isFalse();
        assertThat(endpoint.readAvailableCalls()).isEqualTo(readsBefore + 1);

        endpoint.feed("GET /2 HTTP/1.1\r\nHost: a\r\n\r\n");
        assertThat(engine.poll()).isTrue();
        assertThat(engine.serve()).isTrue();
        assertThat(endpoint.takeOutput()).isEqualTo(ok("GET /2 q=null piece=null body="));
    }

    @Test
    void onAWorkerTheSocketIsReadOnceMoreBeforeWaiting() {
        Http1Connection engine = engine(); // a handler that may block: served on a worker
        assertThat(engine.serve()).isTrue();
        endpoint.feed("GET /1 HTTP/1.1\r\nHost: a\r\n\r\n");
        assertThat(engine.poll()).isTrue();
        int readsBefore = endpoint.readAvailableCalls();
        assertThat(engine.serve()).isTrue();
        assertThat(endpoint.takeOutput()).isEqualTo(ok("GET /1 q=null piece=null body="));
        assertThat(endpoint.readAvailableCalls()).as("a request found now saves the hand-back").isEqualTo(readsBefore + 1);
    }

    @Test
    void pipelinedRequestsArrivingTogetherAreAllAnsweredBeforeWaiting() {
        Http1Connection engine = engine();
        assertThat(engine.serve()).isTrue();
        endpoint.feed("GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\nGET /3 HT");
        assertThat(engine.poll()).isTrue();

        assertThat(engine.serve()).as("waiting for the rest of the third").isTrue();
        assertThat(endpoint.takeOutput()).isEqualTo(ok("GET /1 q=null piece=null body=") + ok("GET /2 q=null piece=null body="));

        endpoint.feed("TP/1.1\r\nHost: a\r\n\r\n");
        assertThat(engine.poll()).isTrue();
        assertThat(engine.serve()).isTrue();
        assertThat(endpoint.takeOutput()).isEqualTo(ok("GET /3 q=null piece=null body="));
    }

    @Test
    void badHeadFedThroughPollIsAnsweredWith400ByTheNextServe() {
        Http1Connection engine = engine();
        assertThat(engine.serve()).isTrue();
        endpoint.feed("GET / HTTP/1.1\r\n");
        assertThat(engine.poll()).isFalse();
        endpoint.feed("Host : a\r\n\r\n");
        assertThat(engine.poll()).as("there is an answer to give").isTrue();
        assertThat(endpoint.output()).as("poll never writes").isEmpty();

        assertThat(engine.serve()).as("the connection ended").isFalse();
        assertThat(endpoint.output())
                .startsWith("HTTP/1.1 400 Bad Request\r\n")
                .contains("Connection: close\r\n")
                .endsWith("Bad Request: Whitespace between a field name and its colon\n");
        assertThat(endpoint.closed()).isTrue();
    }

    @Test
    void peerClosingBetweenRequestsEndsTheConnectionQuietly() {
        Http1Connection engine = engine();
        endpoint.feed("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        assertThat(engine.serve()).isTrue();
        endpoint.takeOutput();

        endpoint.feedEnd();
        assertThat(engine.poll()).as("end of stream is work for serve()").isTrue();
        assertThat(engine.serve()).isFalse();
        assertThat(endpoint.output()).isEmpty();
        assertThat(endpoint.closed()).isTrue();
    }

    @Test
    void wakeDeadlineIsTheHeaderTimeoutForAFirstRequestThenTheIdleTimeout() {
        Duration header = Duration.ofSeconds(3);
        Duration idle = Duration.ofSeconds(7);
        Http1Connection engine = engine(header, idle);

        long before = System.nanoTime();
        assertThat(engine.serve()).isTrue();
        long after = System.nanoTime();
        assertThat(engine.wakeDeadline()).as("the first head is due within the header timeout of accept")
                .isBetween(before + header.toNanos(), after + header.toNanos());

        endpoint.feed("GET / HTTP/1.1\r\n");
        before = System.nanoTime();
        assertThat(engine.poll()).isFalse();
        after = System.nanoTime();
        assertThat(engine.wakeDeadline()).as("a begun head is due within the header timeout of its first byte")
                .isBetween(before + header.toNanos(), after + header.toNanos());

        endpoint.feed("Host: a\r\n\r\n");
        assertThat(engine.poll()).isTrue();
        before = System.nanoTime();
        assertThat(engine.serve()).isTrue();
        after = System.nanoTime();
        assertThat(endpoint.output()).startsWith("HTTP/1.1 200 OK\r\n");
        assertThat(engine.wakeDeadline()).as("after a response, the next request is due within the idle timeout")
                .isBetween(before + idle.toNanos(), after + idle.toNanos());

        endpoint.feed("G");
        before = System.nanoTime();
        assertThat(engine.poll()).isFalse();
        after = System.nanoTime();
        assertThat(engine.wakeDeadline()).as("the second head, once begun, has the header timeout again")
                .isBetween(before + header.toNanos(), after + header.toNanos());
    }

    @Test
    void connectionThatNeverSendsIsClosedQuietlyOnceItsDeadlinePasses() throws InterruptedException {
        Http1Connection engine = engine(Duration.ofMillis(150), LONG);
        assertThat(engine.serve()).isTrue();

        waitPast(engine.wakeDeadline());
        assertThat(engine.serve()).as("timed out: the connection ends").isFalse();
        assertThat(endpoint.output()).as("nothing was asked, so nothing is answered").isEmpty();
        assertThat(endpoint.closed()).isTrue();
    }

    @Test
    void idleKeepAliveConnectionIsClosedQuietlyOnceItsDeadlinePasses() throws InterruptedException {
        // long enough for the early wake-up below to come before the deadline even on a busy machine
        Http1Connection engine = engine(LONG, Duration.ofMillis(400));
        endpoint.feed("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        assertThat(engine.serve()).isTrue();
        assertThat(endpoint.takeOutput()).isEqualTo(ok("GET / q=null piece=null body="));

        long deadline = engine.wakeDeadline();
        assertThat(engine.poll()).isFalse();
        assertThat(engine.serve()).as("woken before the deadline with nothing there: waits on").isTrue();
        assertThat(engine.wakeDeadline()).as("an early wake-up does not move the deadline").isEqualTo(deadline);

        waitPast(deadline);
        assertThat(engine.serve()).isFalse();
        assertThat(endpoint.output()).isEmpty();
        assertThat(endpoint.closed()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void begunHeadIsAnswered408OnceTheHeaderTimeoutPasses(boolean afterAResponse) throws InterruptedException {
        Http1Connection engine = engine(Duration.ofMillis(150), LONG);
        if (afterAResponse) {
            endpoint.feed("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(engine.serve()).isTrue();
            assertThat(endpoint.takeOutput()).startsWith("HTTP/1.1 200 OK\r\n");
        } else {
            assertThat(engine.serve()).isTrue();
        }
        endpoint.feed("GET / HTTP/1.1\r\nHo");
        assertThat(engine.poll()).isFalse();

        waitPast(engine.wakeDeadline());
        assertThat(engine.serve()).isFalse();
        assertThat(endpoint.output())
                .startsWith("HTTP/1.1 408 Request Timeout\r\n")
                .contains("Connection: close\r\n");
        assertThat(endpoint.closed()).isTrue();
    }
}
