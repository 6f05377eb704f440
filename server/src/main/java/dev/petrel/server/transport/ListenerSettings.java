package dev.petrel.server.transport;

import dev.petrel.server.config.DataRate;
import java.time.Duration;
import java.util.Objects;

/**
 * How a listener admits connections and how long it lets a write wait.
 *
 * <p>At most {@code maxConnections} connections are served at once. Past that, a new connection
 * waits for a slot in the listener, and those after it in the kernel's accept backlog (at most
 * {@code backlog} of them, as far as the kernel allows). When no connection could be admitted for
 * {@code queueTimeout}, the listener takes waiting connections off the backlog and answers each
 * with {@code 503 Service Unavailable} and {@code Retry-After}, then closes it, until a slot
 * frees: overload gets a fast answer, never a silent reset. A {@code queueTimeout} of zero answers
 * 503 as soon as the server is full.
 *
 * <p>While a new connection waits for a slot, the connections that have waited
 * {@code headTimeoutWhenFull} or longer for a request head (idle keep-alive connections, heads
 * still trickling in, TLS handshakes not done) are closed to make room, as Apache httpd's event
 * MPM shortens keep-alive when busy: a few hundred slow or idle clients cannot hold every slot
 * while a new one waits. A full server that no new client waits for keeps them.
 *
 * @param maxConnections connections served at once (by every listener sharing a {@link ConnectionLimit}
 *        of this size); also what a thread pool is sized for
 * @param backlog accept backlog asked of the kernel
 * @param queueTimeout how long the server may stay full before it turns connections away
 * @param writeTimeout how long a write may wait for the peer to take bytes before the connection is cut
 * @param minWriteRate the slowest a client may take a response before the connection is cut (see {@link WriteLimits})
 * @param headTimeoutWhenFull how long a connection may wait for a request head while every slot is taken
 * @param eventLoops selector threads of the {@code nio} transport
 */
public record ListenerSettings(int maxConnections, int backlog, Duration queueTimeout, Duration writeTimeout,
                               DataRate minWriteRate, Duration headTimeoutWhenFull, int eventLoops) {
    /** Checks every setting. */
    public ListenerSettings {
        if (maxConnections < 1) throw new IllegalArgumentException("maxConnections must be positive");
        if (backlog < 1) throw new IllegalArgumentException("backlog must be positive");
        Objects.requireNonNull(queueTimeout, "queueTimeout");
        if (queueTimeout.isNegative()) throw new IllegalArgumentException("queueTimeout must not be negative");
        Objects.requireNonNull(writeTimeout, "writeTimeout");
        if (writeTimeout.isNegative() || writeTimeout.isZero()) throw new IllegalArgumentException("writeTimeout must be positive");
        Objects.requireNonNull(minWriteRate, "minWriteRate");
        Objects.requireNonNull(headTimeoutWhenFull, "headTimeoutWhenFull");
        if (headTimeoutWhenFull.isNegative() || headTimeoutWhenFull.isZero()) {
            throw new IllegalArgumentException("headTimeoutWhenFull must be positive");
        }
        if (eventLoops < 1) throw new IllegalArgumentException("eventLoops must be positive");
    }

    WriteLimits writeLimits() {
        return new WriteLimits(writeTimeout, minWriteRate);
    }
}
