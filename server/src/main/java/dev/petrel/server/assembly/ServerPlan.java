package dev.petrel.server.assembly;

import dev.petrel.server.Handler;
import dev.petrel.server.config.AccessLog;
import dev.petrel.server.config.Connector;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.config.TransportKind;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;

/**
 * What a {@link dev.petrel.server.Server.Builder} was told, checked and with its shortcuts turned
 * into connectors: everything {@link RunningServer#start} needs to build the server.
 *
 * @param connectors the connectors to open, in order
 * @param host the address a connector without its own binds
 * @param transport the transport
 * @param maxConnections connections served at once over every connector; 0 or less: the transport's default
 * @param backlog the accept backlog asked of the kernel
 * @param queueTimeout how long the server may be full before it turns connections away
 * @param eventLoops selector threads of the nio transport
 * @param config limits and timeouts
 * @param http2 HTTP/2's switch and limits
 * @param clock the clock for {@code Date} headers and the access log
 * @param handler the application
 * @param accessLog the access log, or null for none
 * @param countMetrics whether to count per connector
 * @param watchCertificates whether to reload certificates when their files change
 */
public record ServerPlan(List<Connector> connectors, String host, TransportKind transport, int maxConnections, int backlog,
                         Duration queueTimeout, int eventLoops, ServerConfig config, Http2Config http2, InstantSource clock,
                         Handler handler, AccessLog accessLog, boolean countMetrics, boolean watchCertificates) {
    /** Copies the connector list. */
    public ServerPlan {
        connectors = List.copyOf(connectors);
    }

    /** The connection limit: the one set, else the transport's default. */
    int connectionLimit() {
        return maxConnections > 0 ? maxConnections : transport.defaultMaxConnections();
    }
}
