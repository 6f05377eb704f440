package dev.petrel.server.engine.connection;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two tiers of {@link ConnectionInput} on their own: when it moves to a large buffer from the
 * pool, that the unconsumed bytes move along in order, and when it gives the large buffer back.
 * The pool holds one buffer, {@code pooled}, put there first: a connection that borrows gets that
 * one, so finding it in the pool afterwards shows it came back, and finding it in use shows that
 * nothing new was allocated.
 */
class ConnectionInputTest {
    private static final int SMALL = ConnectionInput.SMALL_BUFFER_BYTES;
    private static final int LARGE = 8192;

    private final InputBufferPool pool = new InputBufferPool(LARGE, 1);
    private final ByteBuffer pooled = ByteBuffer.allocate(LARGE);

    ConnectionInputTest() {
        pool.release(pooled);
    }

    private ConnectionInput input(ScriptedEndpoint endpoint) {
        return new ConnectionInput(endpoint, SMALL, pool);
    }

    private static String bytes(int n, char first) {
        StringBuilder s = new StringBuilder(n);
        for (int i = 0; i < n; i++) s.append((char) (first + i % 26));
        return s.toString();
    }

    private static String take(ConnectionInput input, int n) {
        byte[] b = new byte[n];
        input.buffer().get(b);
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    private static String takeAll(ConnectionInput input) {
        return take(input, input.buffer().remaining());
    }

    @Test
    void readsARequestThatFitsIntoTheSmallBufferWithoutTouchingThePool() throws IOException {
        ScriptedEndpoint endpoint = new ScriptedEndpoint(List.of("GET / HTTP/1.1\r\nHost: a\r\n\r\n", "GET /2 HTTP/1.1\r\n"),
                8192, ScriptedEndpoint.End.EOF);
        ConnectionInput input = input(endpoint);

        assertThat(input.fill(1000)).isEqualTo(27);
        takeAll(input);
        input.settle();
        assertThat(input.fill(1000)).isEqualTo(17);

        assertThat(input.borrowing()).isFalse();
        assertThat(endpoint.readInto()).extracting(ByteBuffer::capacity).containsOnly(SMALL);
        assertThat(pool.acquire()).as("still in the pool").isSameAs(pooled);
    }

    @Test
    void movesToTheLargeBufferAfterAReadFillsTheSmallOneToTheBrim() throws IOException {
        String data = bytes(3000, 'a');
        ScriptedEndpoint endpoint = new ScriptedEndpoint(data, 8192, ScriptedEndpoint.End.EOF);
        ConnectionInput input = input(endpoint);

        assertThat(input.fill(1000)).isEqualTo(SMALL);
        assertThat(input.borrowing()).isFalse();
        String first = takeAll(input);
        assertThat(input.fill(1000)).as("the rest in one read").isEqualTo(3000 - SMALL);

        assertThat(input.buffer()).isSameAs(pooled);
        assertThat(first + takeAll(input)).isEqualTo(data);
    }

    @Test
    void carriesUnconsumedBytesIntoTheLargeBufferInOrder() throws IOException {
        String data = bytes(5000, 'a');
        ConnectionInput input = input(new ScriptedEndpoint(data, 700, ScriptedEndpoint.End.EOF));
        input.fill(1000);
        String consumed = take(input, 100);
        input.fill(1000); // 600 unconsumed and 424 more: the small buffer is full
        assertThat(input.buffer().remaining()).isEqualTo(SMALL);

        input.fill(1000);

        assertThat(input.buffer()).isSameAs(pooled);
        assertThat(input.buffer().remaining()).isEqualTo(SMALL + 700);
        while (input.fill(1000) > 0) {
            // the rest
        }
        assertThat(consumed + takeAll(input)).isEqualTo(data);
    }

    @Test
    void movesToTheLargeBufferWhenASettledLeftoverFillsTheSmallOne() throws IOException {
        String data = bytes(3000, 'a');
        ConnectionInput input = input(new ScriptedEndpoint(List.of(data, "more"), 8192, ScriptedEndpoint.End.EOF));
        String consumed = takeAll(fill(input));
        input.fill(1000);
        consumed += take(input, 3000 - 2 * SMALL);
        input.settle(); // exactly SMALL left: copied down, filling the small buffer

        assertThat(input.borrowing()).isFalse();
        assertThat(input.fill(1000)).as("room made for the read").isEqualTo(4);
        assertThat(input.buffer()).isSameAs(pooled);
        assertThat(consumed + takeAll(input)).isEqualTo(data + "more");
    }

    @Test
    void givesTheLargeBufferBackWhenItIsEmptyAtSettle() throws IOException {
        ScriptedEndpoint endpoint = new ScriptedEndpoint(List.of(bytes(3000, 'a'), "next"), 8192, ScriptedEndpoint.End.EOF);
        ConnectionInput input = input(endpoint);
        input.fill(1000);
        takeAll(input);
        input.fill(1000);
        assertThat(input.borrowing()).isTrue();
        takeAll(input);

        input.settle();

        assertThat(input.borrowing()).isFalse();
        assertThat(input.buffer().capacity()).isEqualTo(SMALL);
        assertThat(input.fill(1000)).isEqualTo(4);
        assertThat(takeAll(input)).isEqualTo("next");
        assertThat(endpoint.readInto().getLast().capacity()).as("read after settling").isEqualTo(SMALL);
        assertThat(pool.acquire()).isSameAs(pooled);
    }

    @Test
    void copiesALeftoverThatFitsIntoTheSmallBufferAndGivesTheLargeOneBack() throws IOException {
        String data = bytes(3000, 'a');
        ConnectionInput input = input(new ScriptedEndpoint(data + "tail", 8192, ScriptedEndpoint.End.EOF));
        String consumed = takeAll(fill(input));
        input.fill(1000);
        consumed += take(input, 3000 - SMALL - 500); // 500 bytes and "tail" left

        input.settle();

        assertThat(input.borrowing()).isFalse();
        assertThat(pool.acquire()).isSameAs(pooled);
        assertThat(consumed + takeAll(input)).isEqualTo(data + "tail");
    }

    @Test
    void keepsTheLargeBufferWhileTheLeftoverDoesNotFitTheSmallOne() throws IOException {
        String data = bytes(3000, 'a');
        ConnectionInput input = input(new ScriptedEndpoint(data, 8192, ScriptedEndpoint.End.EOF));
        String consumed = takeAll(fill(input));
        input.fill(1000);
        consumed += take(input, 100); // 1876 left

        input.settle();
        assertThat(input.buffer()).as("kept: the leftover does not fit").isSameAs(pooled);
        consumed += take(input, 1000);
        input.settle();

        assertThat(input.borrowing()).as("876 left: copied down").isFalse();
        assertThat(consumed + takeAll(input)).isEqualTo(data);
        assertThat(pool.acquire()).isSameAs(pooled);
    }

    @Test
    void startsTheNextExchangeSmallEvenWhenTheLastReadFilledTheSmallBuffer() throws IOException {
        ScriptedEndpoint endpoint = new ScriptedEndpoint(List.of(bytes(SMALL, 'a'), "next"), 8192, ScriptedEndpoint.End.EOF);
        ConnectionInput input = input(endpoint);
        takeAll(fill(input));

        input.settle(); // the exchange that took the whole small buffer is over
        input.fill(1000);

        assertThat(input.borrowing()).isFalse();
        assertThat(takeAll(input)).isEqualTo("next");
    }

    @Test
    void givesTheLargeBufferBackAtReleaseWhateverItHolds() throws IOException {
        ConnectionInput input = input(new ScriptedEndpoint(bytes(5000, 'a'), 8192, ScriptedEndpoint.End.EOF));
        takeAll(fill(input));
        input.fill(1000);
        assertThat(input.buffer().remaining()).isGreaterThan(SMALL);

        input.release();

        assertThat(input.borrowing()).isFalse();
        assertThat(input.hasRemaining()).isFalse();
        assertThat(pool.acquire()).isSameAs(pooled);
    }

    @Test
    void withoutAPoolKeepsItsOneBuffer() throws IOException {
        ScriptedEndpoint endpoint = new ScriptedEndpoint(bytes(3000, 'a'), 8192, ScriptedEndpoint.End.EOF);
        ConnectionInput input = new ConnectionInput(endpoint, 2048);
        takeAll(fill(input));
        input.fill(1000);
        input.settle();

        assertThat(endpoint.readInto()).extracting(ByteBuffer::capacity).containsOnly(2048);
        assertThat(pool.acquire()).isSameAs(pooled);
    }

    private static ConnectionInput fill(ConnectionInput input) throws IOException {
        input.fill(1000);
        return input;
    }

    @Test
    void aPooledSmallBufferIsHeldOnlyWhileBytesAreInFlight() throws IOException {
        InputBufferPool smallPool = new InputBufferPool(SMALL, 1);
        ByteBuffer small = ByteBuffer.allocate(SMALL);
        smallPool.release(small);
        ScriptedEndpoint endpoint = new ScriptedEndpoint(List.of("GET /1 HTTP/1.1\r\n\r\nGET", " /2 HTTP/1.1\r\n\r\n"),
                8192, ScriptedEndpoint.End.EOF);
        ConnectionInput input = new ConnectionInput(endpoint, smallPool, pool);
        assertThat(input.hasRemaining()).isFalse();

        assertThat(input.fill(1000)).isEqualTo(22);
        assertThat(input.buffer()).isSameAs(small);
        assertThat(take(input, 19)).isEqualTo("GET /1 HTTP/1.1\r\n\r\n");
        input.settle();
        assertThat(input.buffer()).as("kept: the next request has begun in it").isSameAs(small);

        assertThat(input.fill(1000)).isEqualTo(16);
        assertThat(takeAll(input)).isEqualTo("GET /2 HTTP/1.1\r\n\r\n");
        input.settle();
        assertThat(input.hasRemaining()).isFalse();
        assertThat(smallPool.acquire()).as("given back once empty").isSameAs(small);
    }

    @Test
    void bytesLeftInTheLargeBufferMoveToAPooledSmallBufferTakenForThem() throws IOException {
        InputBufferPool smallPool = new InputBufferPool(SMALL, 1);
        String data = bytes(3000, 'a');
        ScriptedEndpoint endpoint = new ScriptedEndpoint(data, 8192, ScriptedEndpoint.End.EOF);
        ConnectionInput input = new ConnectionInput(endpoint, smallPool, pool);

        input.fill(1000);
        String first = takeAll(input);
        input.fill(1000);
        assertThat(input.buffer()).isSameAs(pooled);
        String second = take(input, 3000 - SMALL - 100);
        input.settle();

        assertThat(input.borrowing()).isFalse();
        assertThat(first + second + takeAll(input)).isEqualTo(data);
        assertThat(pool.acquire()).as("the large buffer, back").isSameAs(pooled);
        input.release();
        assertThat(input.hasRemaining()).isFalse();
        assertThat(smallPool.acquire().capacity()).as("the small one, back at release").isEqualTo(SMALL);
    }
}
