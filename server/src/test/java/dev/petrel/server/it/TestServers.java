package dev.petrel.server.it;

import dev.petrel.http.HttpLimits;
import dev.petrel.server.Handler;
import dev.petrel.server.Server;
import dev.petrel.server.config.ServerConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.provider.Arguments;

/** Starting servers for the tests: 127.0.0.1, a port the OS picks, a short shutdown grace. */
final class TestServers {
    private TestServers() {}

    /**
     * Timeouts generous enough never to fire by accident on a slow machine, yet short enough that
     * a test waiting for one by mistake fails fast (the client gives up after 5 s anyway).
     */
    static Config config() {
        return new Config();
    }

    static Server start(Transport kind, Handler handler) throws IOException {
        return start(kind, config().build(), handler);
    }

    static Server start(Transport kind, ServerConfig config, Handler handler) throws IOException {
        return builder(kind, config, handler).start();
    }

    /**
     * Set by {@code petrel-tls-native}, which runs this suite again with its engine as every TLS
     * configuration's default: the plain-HTTP variants ran in {@code petrel-server} already and
     * would only test the same thing twice.
     */
    static final boolean TLS_ONLY = Boolean.getBoolean("petrel.test.tls-only");

    /** The builder {@link #start} uses, for settings beyond the config; a TLS variant serves HTTPS only. */
    static Server.Builder builder(Transport kind, ServerConfig config, Handler handler) {
        skipUnlessTls(kind.tls());
        Server.Builder builder = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .transport(kind.kind())
                .config(config)
                .shutdownGrace(Duration.ofSeconds(2))
                .handler(kind.handler(handler));
        if (kind.tls()) builder.plainHttp(false).https(0, TestCertificate.get().serverConfig());
        return builder;
    }

    /**
     * Whether the server can still answer after the client's close_notify. The JDK's engine lets
     * a TLS 1.3 client half-close (RFC 8446 section 6.1) and answers what it had sent; Netty's
     * engine over BoringSSL (the native engine) closes its own side as soon as it reads the
     * client's close_notify, as TLS 1.2 required, so nothing more can be written. Without TLS a
     * half-close is always answered.
     */
    static boolean answersAfterCloseNotify(Transport kind) {
        return !kind.tls() || !TestCertificate.get().serverConfig().engine().equals(dev.petrel.server.config.TlsConfig.NATIVE);
    }

    /** In a run for another TLS engine ({@link #TLS_ONLY}), skips a case that serves no TLS. */
    static void skipUnlessTls(boolean servesTls) {
        if (TLS_ONLY && !servesTls) Assumptions.abort(() -> "plain HTTP: run by petrel-server's own suite, not again for another TLS engine");
    }

    /**
     * Polls {@code condition} every 20 ms until it holds; fails, saying {@code what} was awaited,
     * when it still does not after {@code within}. For effects the server brings about on its own
     * threads, such as freeing a connection after its client left.
     */
    static void awaitCondition(String what, Duration within, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) throw new AssertionError("not within " + within.toMillis() + " ms: " + what);
            Thread.sleep(20);
        }
    }

    /** Waits (at most 5 s) until the server counts exactly {@code expected} live connections. */
    static void awaitLiveConnections(Server server, int expected) throws InterruptedException {
        awaitCondition("liveConnections() == " + expected + " (last seen " + server.liveConnections() + ")",
                Duration.ofSeconds(5), () -> server.liveConnections() == expected);
    }

    /** Every transport crossed with every case: arguments (kind, case) for a {@code @MethodSource}. */
    static Stream<Arguments> everyTransportWith(List<?> cases) {
        return Arrays.stream(Transport.values())
                .flatMap(kind -> cases.stream().map(c -> Arguments.of(kind, c)));
    }

    /** A {@link ServerConfig} to adjust one setting at a time. */
    static final class Config {
        private HttpLimits limits = HttpLimits.DEFAULT;
        private Duration headerTimeout = Duration.ofSeconds(4);
        private Duration idleTimeout = Duration.ofSeconds(4);
        private Duration bodyReadTimeout = Duration.ofSeconds(4);
        private Duration writeTimeout = Duration.ofSeconds(4);
        private int maxRequestsPerConnection = 10_000;
        private long maxDrainBytes = 64 * 1024;
        private int responseBufferSize = 16 * 1024;
        private ServerConfig base = ServerConfig.DEFAULT;

        Config limits(HttpLimits limits) {
            this.limits = limits;
            return this;
        }

        Config headerTimeout(Duration d) {
            this.headerTimeout = d;
            return this;
        }

        Config idleTimeout(Duration d) {
            this.idleTimeout = d;
            return this;
        }

        Config bodyReadTimeout(Duration d) {
            this.bodyReadTimeout = d;
            return this;
        }

        Config writeTimeout(Duration d) {
            this.writeTimeout = d;
            return this;
        }

        Config maxRequestsPerConnection(int n) {
            this.maxRequestsPerConnection = n;
            return this;
        }

        Config maxDrainBytes(long n) {
            this.maxDrainBytes = n;
            return this;
        }

        Config responseBufferSize(int n) {
            this.responseBufferSize = n;
            return this;
        }

        /** Starts from {@code config} for the settings this builder has no method for. */
        Config from(ServerConfig config) {
            this.base = config;
            return this;
        }

        ServerConfig build() {
            return base.withLimits(limits).withHeaderTimeout(headerTimeout).withIdleTimeout(idleTimeout)
                    .withBodyReadTimeout(bodyReadTimeout).withWriteTimeout(writeTimeout)
                    .withMaxRequestsPerConnection(maxRequestsPerConnection).withMaxDrainBytes(maxDrainBytes)
                    .withResponseBufferSize(responseBufferSize);
        }
    }
}
