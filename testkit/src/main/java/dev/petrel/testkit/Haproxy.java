package dev.petrel.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A private HAProxy (Debian's {@code haproxy} package) for tests: in front of backends on
 * loopback, listening on a free loopback port, with its own config in a temporary folder, run in
 * the foreground as a child of this JVM and stopped by its pid. Never the system's service.
 *
 * <pre>{@code
 * try (Haproxy proxy = Haproxy.builder().backend("127.0.0.1", 8080).sendProxy(Haproxy.ProxyHeader.V2).start()) {
 *     // connect to 127.0.0.1:proxy.port()
 * }
 * }</pre>
 */
public final class Haproxy extends LoopbackFrontEnd {
    private static final Path BINARY = Path.of("/usr/sbin/haproxy");

    /** What HAProxy tells each backend of the client, before the client's bytes. */
    public enum ProxyHeader {
        /** Nothing: the backend sees HAProxy's own address. */
        NONE(""),
        /** A PROXY protocol v1 line ({@code send-proxy}). */
        V1(" send-proxy"),
        /** A PROXY protocol v2 header ({@code send-proxy-v2}). */
        V2(" send-proxy-v2");

        private final String option;

        ProxyHeader(String option) {
            this.option = option;
        }
    }

    private Haproxy(LoopbackDaemon daemon) {
        super(daemon);
    }

    /** Why HAProxy cannot run here, or empty when it can; tests skip with this text. */
    public static Optional<String> unavailableReason() {
        if (Files.isExecutable(BINARY)) return Optional.empty();
        return Optional.of(BINARY + " is missing; install with: apt-get install -y haproxy");
    }

    /** A builder; at least one {@link Builder#backend} is required. */
    public static Builder builder() {
        return new Builder();
    }

    /** Configures and starts a {@link Haproxy}. */
    public static final class Builder {
        private final List<String> backends = new ArrayList<>();
        private ProxyHeader proxyHeader = ProxyHeader.NONE;
        private boolean forwardFor;
        private String healthCheck;
        private boolean tcp;

        private Builder() {}

        /** A backend server, in HTTP mode balanced round robin. */
        public Builder backend(String host, int port) {
            backends.add(Objects.requireNonNull(host, "host") + ":" + port);
            return this;
        }

        /** The PROXY protocol header sent to the backends (default none). */
        public Builder sendProxy(ProxyHeader header) {
            this.proxyHeader = Objects.requireNonNull(header, "header");
            return this;
        }

        /** Whether HAProxy adds {@code X-Forwarded-For} ({@code option forwardfor}; default false). */
        public Builder forwardFor(boolean on) {
            this.forwardFor = on;
            return this;
        }

        /** Checks each backend with {@code GET path} every 200 ms ({@code option httpchk}); off by default. */
        public Builder healthCheck(String path) {
            this.healthCheck = path;
            return this;
        }

        /** TCP mode instead of HTTP mode: bytes passed through, no HTTP parsing (default false). */
        public Builder tcp(boolean on) {
            this.tcp = on;
            return this;
        }

        /** Writes the config, starts HAProxy and waits until its port accepts connections. */
        public Haproxy start() throws IOException {
            Optional<String> unavailable = unavailableReason();
            if (unavailable.isPresent()) throw new IOException(unavailable.get());
            if (backends.isEmpty()) throw new IllegalStateException("no backend");
            Path dir = LoopbackDaemon.folder("haproxy");
            int port = LoopbackDaemon.freePort();
            StringBuilder conf = new StringBuilder();
            conf.append("global\n    maxconn 1024\n\n");
            conf.append("defaults\n    mode ").append(tcp ? "tcp" : "http").append('\n')
                .append("    timeout connect 5s\n    timeout client 30s\n    timeout server 30s\n\n");
            conf.append("frontend fe\n    bind ").append(LoopbackDaemon.LOOPBACK.getHostAddress()).append(':').append(port).append('\n')
                .append("    default_backend be\n\n");
            conf.append("backend be\n    balance roundrobin\n");
            if (forwardFor) conf.append("    option forwardfor\n");
            if (healthCheck != null) conf.append("    option httpchk GET ").append(healthCheck).append('\n');
            for (int i = 0; i < backends.size(); i++) {
                conf.append("    server s").append(i + 1).append(' ').append(backends.get(i)).append(proxyHeader.option);
                if (healthCheck != null) conf.append(" check inter 200ms fall 2 rise 2");
                conf.append('\n');
            }
            Path config = dir.resolve("haproxy.cfg");
            Files.writeString(config, conf);
            return new Haproxy(LoopbackDaemon.start("haproxy", dir, port, List.of(BINARY.toString(), "-db", "-f", config.toString())));
        }
    }
}
