package dev.petrel.server;

import dev.petrel.server.config.Connector;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * What a server counted on one of its connectors since it started: connections, bytes, TLS
 * handshakes, requests by method and status class, how long requests took, and its WebSocket
 * sessions. A server counts only when {@linkplain Server.Builder#metrics(boolean) told to};
 * {@link Server#metrics()} lists one of these per connector, in the order of {@link Server#connectors()}.
 *
 * <p>Every figure is read live, without a lock: figures read one after the other may be from
 * slightly different moments. Counting costs no allocation on the request path; reading
 * ({@link #durations()}) allocates a snapshot.
 *
 * <pre>{@code
 * for (ConnectorMetrics m : server.metrics()) {
 *     System.out.println(m.name() + ": " + m.requests() + " requests, " + m.connectionsOpen() + " connections open");
 * }
 * }</pre>
 */
public interface ConnectorMetrics {
    /** The request methods counted apart; any other method counts as {@link #OTHER}. */
    enum Method {
        /** GET. */ GET,
        /** HEAD. */ HEAD,
        /** POST. */ POST,
        /** PUT. */ PUT,
        /** DELETE. */ DELETE,
        /** OPTIONS. */ OPTIONS,
        /** PATCH. */ PATCH,
        /** Any other method (TRACE, CONNECT, an extension method). */ OTHER
    }

    /** The connector counted. */
    Connector connector();

    /** The address it listens on (with the real port when port 0 was asked for). */
    InetSocketAddress address();

    /** A short name for it: the protocol and port, such as {@code http-8080} or {@code ajp-8009}. */
    String name();

    /** Connections accepted and served. */
    long connectionsAccepted();

    /** Connections turned away at the connection limit (with a {@code 503} where the protocol allows one). */
    long connectionsRefused();

    /** Connections being served now. */
    long connectionsOpen();

    /** Bytes read from its connections, as they came off the network (TLS records included). */
    long bytesReceived();

    /** Bytes written to its connections, as they went onto the network (TLS records included). */
    long bytesSent();

    /** TLS handshakes completed (0 on a connector without TLS). */
    long tlsHandshakes();

    /** TLS handshakes that failed: a bad or clear-text client, a timeout, no common protocol or cipher. */
    long tlsHandshakeFailures();

    /** Requests whose handler is running or whose response is being written now. */
    long requestsInFlight();

    /**
     * Requests with {@code method} answered with a status of class {@code statusClass} (1 to 5:
     * {@code 2} counts 200 to 299). A request counts once its exchange is over, whether its
     * response was finished, replaced by an error answer or cut.
     */
    long requests(Method method, int statusClass);

    /**
     * Requests whose response never ended as complete: cut after the request failed or the handler
     * threw with bytes of it sent (the client saw a truncated body, a reset), or whose client went
     * away. Each is also counted under its method and status in {@link #requests(Method, int)}.
     */
    long requestsIncomplete();

    /** All requests counted so far, whatever their method and status. */
    long requests();

    /** How long requests took, from the handler's start until the exchange was over. */
    Histogram durations();

    /** The WebSocket sessions opened on this connector: all zero on one that carries none (AJP). */
    WebSocketMetrics webSockets();

    /**
     * A snapshot of a duration histogram with fixed buckets, as Prometheus expects one.
     *
     * @param upperBounds the buckets' inclusive upper bounds, ascending; a last, unbounded bucket follows them
     * @param cumulativeCounts for each bound, how many durations were at most that long, then the
     *                         total count (one more entry than {@code upperBounds})
     * @param sum the durations added up
     */
    record Histogram(List<Duration> upperBounds, List<Long> cumulativeCounts, Duration sum) {
        /** Checks that there is one count per bound plus the total. */
        public Histogram {
            upperBounds = List.copyOf(upperBounds);
            cumulativeCounts = List.copyOf(cumulativeCounts);
            if (cumulativeCounts.size() != upperBounds.size() + 1) {
                throw new IllegalArgumentException("one count per bound and one for all: " + upperBounds.size() + " bounds, "
                        + cumulativeCounts.size() + " counts");
            }
        }

        /** How many durations were recorded. */
        public long count() {
            return cumulativeCounts.getLast();
        }
    }
}
