package dev.petrel.microbench;

import dev.petrel.http.ParseStatus;
import dev.petrel.http.RequestParser;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The HTTP/1.1 codec alone: one request head parsed and validated per operation, with the parser
 * reset and reused as a keep-alive connection reuses it. {@code -prof gc} shows the bytes it
 * allocates per head ({@code gc.alloc.rate.norm}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RequestParserBenchmark {
    @Param({"ab", "wrk", "browser"})
    public String request;

    private final RequestParser parser = new RequestParser();
    private ByteBuffer input;

    @Setup
    public void setUp() {
        input = ByteBuffer.wrap(Requests.bytes(request));
        if (parse() != ParseStatus.COMPLETE) throw new IllegalStateException("the " + request + " request did not parse");
    }

    @Benchmark
    public ParseStatus parse() {
        parser.reset();
        input.clear();
        return parser.parse(input);
    }
}
