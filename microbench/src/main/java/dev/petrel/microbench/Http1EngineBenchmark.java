package dev.petrel.microbench;

import dev.petrel.http.DateCache;
import dev.petrel.server.Handler;
import dev.petrel.server.Router;
import dev.petrel.server.config.Connector;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.engine.exchange.ExchangeObserver;
import dev.petrel.server.http1.Http1Connection;
import dev.petrel.server.observe.ConnectorCounters;
import dev.petrel.server.observe.ExchangeRecorder;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The HTTP/1.1 protocol engine over one keep-alive connection, driven in memory: per operation one
 * request arrives, the engine parses it, routes it to the lab's HelloWorld handler (the same
 * {@link Router} and handler as the lab's {@code PetrelHello}), writes the response and waits for
 * the next request. No socket and no thread hand-off: what is left is the engine's own cost, and
 * {@code -prof gc} shows its allocation per request, which issue 7 wants at zero.
 *
 * <p>It drives the engine as the {@code nio} transport's loop does with a handler that never
 * blocks: the socket turns readable ({@code poll()} takes the bytes in), then {@code serve()} runs
 * inline. An engine that reads a socket only when told it is readable would otherwise answer
 * nothing after the first request, and each operation would measure an empty {@code serve()}; the
 * check after each iteration counts the responses to rule that out.
 *
 * <p>With {@code metrics=counted} the handler is observed as {@code Server.Builder.metrics(true)}
 * has it: the request counted by method and status, its duration in the histogram. Issue 18 wants
 * that allocation-free too: {@code gc.alloc.rate.norm} must not change.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class Http1EngineBenchmark {
    private static final byte[] HELLO = "HelloWorld".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PAGE = new byte[35 * 1024];

    @Param({"ab", "wrk", "browser"})
    public String request;

    @Param({"none", "counted"})
    public String metrics;

    private InMemoryEndpoint endpoint;
    private Http1Connection connection;
    private long expectedPerResponse;
    private long served;

    @Setup(Level.Iteration)
    public void setUp() {
        Handler hello = (req, res) -> res.contentType("text/plain;charset=UTF-8").send(HELLO);
        Handler page = (req, res) -> res.contentType("text/html;charset=UTF-8").send(PAGE);
        Router router = Router.builder().route("*", "/page", page).fallback(hello).build();
        endpoint = new InMemoryEndpoint(Requests.bytes(request));
        // no limit on requests per connection, which would otherwise close it mid-iteration
        ServerConfig config = ServerConfig.DEFAULT.withMaxRequestsPerConnection(Integer.MAX_VALUE);
        Handler handler = Handler.nonBlocking(router);
        ExchangeObserver observer = ExchangeObserver.NONE;
        if (metrics.equals("counted")) {
            observer = new ExchangeRecorder(null, null, InstantSource.system(), ZoneId.systemDefault(),
                    new ConnectorCounters(Connector.http(0)));
        }
        connection = new Http1Connection(endpoint, handler, observer, config, new DateCache(InstantSource.system()));
        serveOne();
        expectedPerResponse = endpoint.bytesWritten();
        served = 1;
    }

    @Benchmark
    public long serveOne() {
        endpoint.arrive();
        if (connection.poll() && !connection.serve()) throw new IllegalStateException("the engine closed the connection");
        served++;
        return endpoint.bytesWritten();
    }

    @TearDown(Level.Iteration)
    public void check() {
        // one response per operation, each as long as the first: the engine answered every request, and alike
        if (endpoint.bytesWritten() != served * expectedPerResponse || endpoint.closed()) {
            throw new IllegalStateException("the engine answered " + endpoint.bytesWritten() / (double) expectedPerResponse
                    + " responses to " + served + " requests, or the connection closed");
        }
    }
}
