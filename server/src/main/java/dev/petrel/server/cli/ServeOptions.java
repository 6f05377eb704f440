package dev.petrel.server.cli;

import dev.petrel.server.config.AccessLog;
import dev.petrel.server.config.Connector;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.config.TransportKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The options of {@code petrel serve}, read from the command line, the environment and the config
 * file ({@link ConfigSources}) as {@link ServeOptionTable} declares them.
 *
 * @param listeners where to listen, in order: the {@code --listen} URLs, or those the shorthands
 *        make ({@code --host}/{@code --port}, {@code --https-port}, {@code --ajp-host}/{@code --ajp-port})
 * @param root folder of static files, or {@code null} for the bundled demo site
 * @param transport how connections are served
 * @param maxConnections connections served at once, or -1 for the transport's default
 * @param queueTimeout how long the server may be full before it answers new connections 503
 * @param shutdownGrace how long in-flight requests may take after SIGTERM
 * @param https the settings of every HTTPS listener, or null for none
 * @param ajp the settings of every AJP listener, or null for none
 * @param config the engine's limits and timeouts
 * @param proxyProtocol whether HTTP and HTTPS connections must begin with a PROXY protocol header
 * @param trustedProxies the proxies trusted with PROXY headers and forwarding headers
 * @param accessLog the access log, or {@code null} for none
 * @param demo whether the demo routes ({@code GET /} HelloWorld, {@code /date}, {@code POST /echo})
 *        are served beside a {@code --root} folder; always with the bundled site
 * @param logLevel the lowest level logged: error, warn, info, debug or trace; null to leave the
 *        logging configuration as it is
 * @param cacheControl {@code Cache-Control} values by glob of a static file's path, in the order given
 * @param vhosts a folder of static files per host name ({@code --vhost NAME=DIR}), in the order given;
 *        every other host gets the site of {@code root}
 * @param gzip whether responses of compressible types are gzipped for clients that accept it
 * @param adminHost the admin listener's address
 * @param adminPort the admin listener's port ({@code /health}, {@code /metrics}), or -1 for none
 * @param http2 whether HTTP/2 is spoken ({@code h2} over TLS, {@code h2c} with prior knowledge)
 */
record ServeOptions(List<ListenUrl> listeners, Path root, TransportKind transport, int maxConnections,
                    Duration queueTimeout, Duration shutdownGrace, HttpsOptions https, AjpOptions ajp,
                    ServerConfig config, boolean proxyProtocol, List<String> trustedProxies, AccessLog accessLog,
                    boolean demo, String logLevel, Map<String, String> cacheControl, Map<String, Path> vhosts, boolean gzip,
                    String adminHost, int adminPort, Http2Config http2) {
    /** {@code petrel serve --help}: made from {@link ServeOptionTable}. */
    static final String HELP = ServeHelp.render(ServeOptionTable.GROUPS);

    /** The options of {@code args} alone, without the environment (a {@code --config} file among them is read). */
    static ServeOptions parse(List<String> args) throws UsageException {
        return ConfigSources.merge(args, Map.of()).parse();
    }

    /** Whether plain HTTP is served. */
    boolean plainHttp() {
        return firstHttp() != null;
    }

    /** The first plain HTTP listener's host, or null for none. */
    String host() {
        ListenUrl http = firstHttp();
        return http == null ? null : http.host();
    }

    /** The first plain HTTP listener's port, or -1 for none. */
    int port() {
        ListenUrl http = firstHttp();
        return http == null ? -1 : http.port();
    }

    private ListenUrl firstHttp() {
        return listeners.stream().filter(l -> l.kind() == Connector.Kind.HTTP).findFirst().orElse(null);
    }
}
