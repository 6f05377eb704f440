package dev.petrel.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
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

    private final Path statsSocket;

    private Haproxy(LoopbackDaemon daemon, Path statsSocket) {
        super(daemon);
        this.statsSocket = statsSocket;
    }

    /**
     * One server of the backend as HAProxy's runtime API ({@code show stat}) reports it.
     *
     * @param name        the server's name ({@code s1}, {@code s2}... or the one given to {@link Builder#server})
     * @param status      {@code UP}, {@code DOWN}, {@code MAINT}, {@code no check}...
     * @param retries     requests HAProxy sent to it again after a failure ({@code wretr})
     * @param redispatches requests it took from this server to another ({@code wredis})
     * @param sessions    requests (HTTP mode) or connections it got ({@code stot})
     */
    public record ServerStat(String name, String status, long retries, long redispatches, long sessions) {}

    /**
     * The backend's servers now, from HAProxy's stats socket (a UNIX socket in its private folder).
     *
     * @throws IOException when HAProxy does not answer
     */
    public List<ServerStat> servers() throws IOException {
        List<ServerStat> servers = new ArrayList<>();
        List<String> lines = runtimeCommand("show stat").lines().toList();
        if (lines.isEmpty() || !lines.get(0).startsWith("# ")) throw new IOException("HAProxy's show stat answered: " + lines);
        List<String> header = List.of(lines.get(0).substring(2).split(","));
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            if (f.length < header.size() || !f[0].equals("be") || f[1].equals("BACKEND")) continue;
            servers.add(new ServerStat(f[1], f[header.indexOf("status")], number(f[header.indexOf("wretr")]),
                    number(f[header.indexOf("wredis")]), number(f[header.indexOf("stot")])));
        }
        return servers;
    }

    /** Sends one command to HAProxy's runtime API and returns its answer. */
    private String runtimeCommand(String command) throws IOException {
        try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(statsSocket))) {
            channel.write(ByteBuffer.wrap((command + "\n").getBytes(StandardCharsets.US_ASCII)));
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            ByteBuffer buffer = ByteBuffer.allocate(8192);
            while (channel.read(buffer.clear()) > 0) answer.write(buffer.array(), 0, buffer.position());
            return answer.toString(StandardCharsets.US_ASCII);
        }
    }

    private static long number(String field) {
        return field.isEmpty() ? 0 : Long.parseLong(field);
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
        private String stickyCookie;
        private int retries = -1;

        private Builder() {}

        /** A backend server, in HTTP mode balanced round robin; named {@code s1}, {@code s2}... in order. */
        public Builder backend(String host, int port) {
            return server("s" + (backends.size() + 1), host, port);
        }

        /**
         * A backend server with a name of its own: the one {@link Haproxy#servers()} reports and, with
         * {@link #stickyCookie}, the cookie's value that sends a client back to it (a Tomcat's
         * {@code jvmRoute}, say).
         */
        public Builder server(String name, String host, int port) {
            if (!name.matches("[A-Za-z0-9_.-]+")) throw new IllegalArgumentException("not a server name: " + name);
            backends.add(name + " " + Objects.requireNonNull(host, "host") + ":" + port);
            return this;
        }

        /**
         * Keeps each client on the server it first reached with a cookie HAProxy inserts
         * ({@code cookie NAME insert indirect nocache}; the server's name is the value). A client
         * whose server is down is sent to another, and the cookie then names that one.
         */
        public Builder stickyCookie(String name) {
            if (!name.matches("[A-Za-z0-9_]+")) throw new IllegalArgumentException("not a cookie name: " + name);
            this.stickyCookie = name;
            return this;
        }

        /**
         * Sends a GET or HEAD again, to another server, when its server refused the connection,
         * closed it without an answer or answered 503 (a backend stopping): {@code retries n},
         * {@code option redispatch 1}, {@code retry-on conn-failure empty-response response-timeout 503}.
         * Other methods are never sent twice ({@code disable-l7-retry}): they may not be idempotent.
         */
        public Builder retries(int n) {
            if (n < 0 || n > 10) throw new IllegalArgumentException("retries must be 0 to 10: " + n);
            this.retries = n;
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
            Path statsSocket = dir.resolve("admin.sock");
            conf.append("global\n    maxconn 1024\n    stats socket ").append(statsSocket).append(" mode 600 level admin\n\n");
            conf.append("defaults\n    mode ").append(tcp ? "tcp" : "http").append('\n')
                .append("    timeout connect 5s\n    timeout client 30s\n    timeout server 30s\n\n");
            conf.append("frontend fe\n    bind ").append(LoopbackDaemon.LOOPBACK.getHostAddress()).append(':').append(port).append('\n')
                .append("    default_backend be\n\n");
            conf.append("backend be\n    balance roundrobin\n");
            if (forwardFor) conf.append("    option forwardfor\n");
            if (healthCheck != null) conf.append("    option httpchk GET ").append(healthCheck).append('\n');
            if (stickyCookie != null) conf.append("    cookie ").append(stickyCookie).append(" insert indirect nocache\n");
            if (retries >= 0) {
                conf.append("    retries ").append(retries).append("\n    option redispatch 1\n")
                    .append("    retry-on conn-failure empty-response response-timeout 503\n")
                    .append("    http-request disable-l7-retry unless METH_GET\n");
            }
            for (String server : backends) {
                conf.append("    server ").append(server).append(proxyHeader.option);
                if (stickyCookie != null) conf.append(" cookie ").append(server, 0, server.indexOf(' '));
                if (healthCheck != null) {
                    conf.append(" check inter 200ms fall 2 rise 2");
                    // a backend that expects the PROXY header wants it on the checks' connections too
                    if (proxyHeader != ProxyHeader.NONE) conf.append(" check-send-proxy");
                }
                conf.append('\n');
            }
            Path config = dir.resolve("haproxy.cfg");
            Files.writeString(config, conf);
            return new Haproxy(LoopbackDaemon.start("haproxy", dir, port, List.of(BINARY.toString(), "-db", "-f", config.toString())),
                    statsSocket);
        }
    }
}
