package dev.petrel.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A private nginx (Debian's {@code nginx}, and {@code libnginx-mod-stream} for TCP mode) for
 * tests, in front of one backend on loopback: listening on a free loopback port, with its own
 * config, pid file and temporary files in a private folder, run in the foreground as a child of
 * this JVM and stopped by its pid. Never the system's service.
 *
 * <p>Two modes, as operators put nginx in front of an application server: {@link Mode#STREAM}
 * passes the connection's bytes through behind a PROXY protocol v1 line ({@code proxy_protocol on},
 * nginx's only version for upstreams); {@link Mode#HTTP} proxies HTTP and names the client in
 * {@code X-Forwarded-For}/{@code X-Forwarded-Proto} and RFC 7239 {@code Forwarded}.
 *
 * <pre>{@code
 * try (Nginx nginx = Nginx.start(Nginx.Mode.STREAM, "127.0.0.1", 8080)) {
 *     // connect to 127.0.0.1:nginx.port()
 * }
 * }</pre>
 */
public final class Nginx extends LoopbackFrontEnd {
    private static final Path BINARY = Path.of("/usr/sbin/nginx");
    private static final Path STREAM_MODULE = Path.of("/usr/lib/nginx/modules/ngx_stream_module.so");

    /** How nginx passes requests on. */
    public enum Mode {
        /** TCP: the bytes as they come, after a PROXY protocol v1 line naming the client. */
        STREAM,
        /** HTTP: requests proxied with the forwarding headers set to the client's address and scheme. */
        HTTP
    }

    private Nginx(LoopbackDaemon daemon) {
        super(daemon);
    }

    /** Why nginx cannot run here in {@code mode}, or empty when it can; tests skip with this text. */
    public static Optional<String> unavailableReason(Mode mode) {
        if (!Files.isExecutable(BINARY)) {
            return Optional.of(BINARY + " is missing; install with: apt-get install -y nginx libnginx-mod-stream");
        }
        if (mode == Mode.STREAM && !Files.isRegularFile(STREAM_MODULE)) {
            return Optional.of(STREAM_MODULE + " is missing; install with: apt-get install -y libnginx-mod-stream");
        }
        return Optional.empty();
    }

    /** Writes the config, starts nginx in front of {@code host:port} and waits until it listens. */
    public static Nginx start(Mode mode, String host, int port) throws IOException {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(host, "host");
        Optional<String> unavailable = unavailableReason(mode);
        if (unavailable.isPresent()) throw new IOException(unavailable.get());
        Path dir = LoopbackDaemon.folder("nginx");
        int listen = LoopbackDaemon.freePort();
        String backend = host + ":" + port;
        String bind = LoopbackDaemon.LOOPBACK.getHostAddress() + ":" + listen;
        StringBuilder conf = new StringBuilder();
        if (mode == Mode.STREAM) conf.append("load_module ").append(STREAM_MODULE).append(";\n");
        // root's master would hand the workers to "nobody", who cannot enter the private folder
        conf.append("user root;\nworker_processes 1;\ndaemon off;\n")
            .append("pid ").append(dir.resolve("nginx.pid")).append(";\n")
            .append("error_log stderr notice;\n")
            .append("events { worker_connections 256; }\n");
        if (mode == Mode.STREAM) {
            conf.append("stream {\n    server {\n        listen ").append(bind).append(";\n")
                .append("        proxy_pass ").append(backend).append(";\n")
                .append("        proxy_protocol on;\n    }\n}\n");
        } else {
            conf.append("http {\n    access_log off;\n");
            for (String temp : List.of("client_body", "proxy", "fastcgi", "uwsgi", "scgi")) {
                conf.append("    ").append(temp).append("_temp_path ").append(dir.resolve(temp)).append(";\n");
            }
            conf.append("    server {\n        listen ").append(bind).append(";\n")
                .append("        location / {\n")
                .append("            proxy_pass http://").append(backend).append(";\n")
                .append("            proxy_http_version 1.1;\n")
                .append("            proxy_set_header Connection \"\";\n")
                .append("            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n")
                .append("            proxy_set_header X-Forwarded-Proto $scheme;\n")
                .append("            proxy_set_header Forwarded 'for=\"$remote_addr:$remote_port\";proto=$scheme';\n")
                .append("        }\n    }\n}\n");
        }
        Path config = dir.resolve("nginx.conf");
        Files.writeString(config, conf);
        // -e: its error log before the config is read, which would go to /var/log otherwise
        List<String> command = List.of(BINARY.toString(), "-p", dir + "/", "-e", "stderr", "-c", config.toString());
        return new Nginx(LoopbackDaemon.start("nginx", dir, listen, command));
    }
}
