package dev.petrel.microbench;

import dev.petrel.http.HeaderFields;
import dev.petrel.http.HttpVersion;
import dev.petrel.server.Handler;
import dev.petrel.server.PathParameters;
import dev.petrel.server.Request;
import dev.petrel.server.Router;
import java.io.InputStream;
import java.net.InetSocketAddress;
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
 * The {@link Router} alone, with 100 routes as a REST API of 20 resources has them: per resource
 * {@code /api/rN} (exact), {@code /api/rN/{id}}, {@code /api/rN/{id}/items},
 * {@code /api/rN/{id}/items/{item}} (templates) and {@code /static/rN/*} (a prefix). One request
 * routed per operation, as the server's requests are routed: the request's own
 * {@link PathParameters} re-armed and filled. {@code -prof gc} shows the bytes a routing
 * allocates ({@code gc.alloc.rate.norm}); it should be none, on a match as on a miss.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RouterBenchmark {
    /** Which route the request takes: exact, a template with two captures, a prefix, or none (404). */
    @Param({"exact", "template", "prefix", "miss"})
    public String route;

    private Router router;
    private RoutedRequest request;
    private int captured; // what the handlers saw, so that the work is not optimized away

    @Setup
    public void setUp() {
        Handler capturing = (req, res) -> captured += req.pathParameters().size();
        Router.Builder routes = Router.builder().fallback((req, res) -> captured--);
        for (int r = 0; r < 20; r++) {
            routes.get("/api/r" + r, capturing)
                    .get("/api/r" + r + "/{id}", capturing)
                    .get("/api/r" + r + "/{id}/items", capturing)
                    .get("/api/r" + r + "/{id}/items/{item}", capturing)
                    .get("/static/r" + r + "/*", capturing);
        }
        router = routes.build();
        String path = switch (route) {
            case "exact" -> "/api/r13";
            case "template" -> "/api/r13/12345/items/678";
            case "prefix" -> "/static/r13/app.css";
            case "miss" -> "/api/r13/12345/nothing";
            default -> throw new IllegalArgumentException(route);
        };
        request = new RoutedRequest(path);
        int before = captured;
        route();
        int expected = switch (route) {
            case "template" -> 2;
            case "miss" -> -1;
            default -> 0;
        };
        if (captured - before != expected) throw new IllegalStateException(route + " was not routed as expected");
    }

    @Benchmark
    public int route() {
        try {
            router.handle(request, null); // no handler here answers: the response is never touched
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return captured;
    }

    /** A GET of one path, with a set of path parameters of its own as the server's requests have. */
    private static final class RoutedRequest implements Request {
        private final String path;
        private final PathParameters pathParameters = new PathParameters();

        RoutedRequest(String path) {
            this.path = path;
        }

        @Override
        public PathParameters pathParameters() {
            return pathParameters;
        }

        @Override
        public String method() {
            return "GET";
        }

        @Override
        public String target() {
            return path;
        }

        @Override
        public String path() {
            return path;
        }

        @Override
        public String rawPath() {
            return path;
        }

        @Override
        public String query() {
            return null;
        }

        @Override
        public HttpVersion version() {
            return HttpVersion.HTTP_1_1;
        }

        @Override
        public String scheme() {
            return "http";
        }

        @Override
        public String host() {
            return "bench";
        }

        @Override
        public HeaderFields headers() {
            throw new UnsupportedOperationException();
        }

        @Override
        public long contentLength() {
            return -1;
        }

        @Override
        public boolean hasBody() {
            return false;
        }

        @Override
        public InputStream body() {
            return InputStream.nullInputStream();
        }

        @Override
        public HeaderFields trailers() {
            throw new UnsupportedOperationException();
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return null;
        }

        @Override
        public InetSocketAddress localAddress() {
            return null;
        }
    }
}
