package dev.petrel.tomcat;

import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.ProtocolConnection;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.coyote.Processor;
import org.apache.coyote.UpgradeToken;
import org.apache.coyote.http11.upgrade.InternalHttpUpgradeHandler;
import org.apache.coyote.http11.upgrade.UpgradeProcessorExternal;
import org.apache.coyote.http11.upgrade.UpgradeProcessorInternal;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;
import org.apache.tomcat.InstanceManager;
import org.apache.tomcat.util.ExceptionUtils;
import org.apache.tomcat.util.net.AbstractEndpoint.Handler.SocketState;
import org.apache.tomcat.util.net.SocketEvent;

/**
 * A connection Catalina switched to another protocol ({@code 101}): Tomcat's upgrade handler for
 * it ({@code WsHttpUpgradeHandler} for Jakarta WebSocket, or an application's
 * {@link HttpUpgradeHandler}) served over Petrel's endpoint, as Tomcat's own connectors serve it.
 *
 * <p>What Tomcat's {@code ConnectionHandler} does for an upgraded socket happens here: the handler
 * is initialised with Tomcat's upgrade processor as its {@link WebConnection}, each socket event
 * goes to that processor under the socket's lock, a processor that stays upgraded gets its read
 * interest registered again, and a closed one has its handler destroyed.
 *
 * <p>The thread that serves the connection (one per connection: a virtual thread on the {@code nio}
 * and {@code virtual} transports) is its one reader: it reads when the handler asked for bytes and
 * dispatches {@code OPEN_READ} when they came. Events from other threads run on the connector's
 * executor.
 */
final class UpgradedConnection implements ProtocolConnection {
    private static final Log LOG = LogFactory.getLog(UpgradedConnection.class);
    private static final int INPUT_BUFFER = 8192; // Tomcat's default socket.appReadBufSize

    private final Endpoint endpoint;
    private final UpgradeToken token;
    private final Executor executor;
    private final UpgradeInput input = new UpgradeInput(INPUT_BUFFER);
    private final UpgradedSocket socket;
    private final ReentrantLock lock;
    private Processor processor; // set once the handler is initialised
    private boolean ended;       // under lock

    UpgradedConnection(Endpoint endpoint, UpgradeToken token, UnboundEndpoint tomcatEndpoint, Executor executor) {
        this.endpoint = endpoint;
        this.token = token;
        this.executor = executor;
        this.socket = new UpgradedSocket(endpoint, tomcatEndpoint, this, input, executor);
        this.lock = socket.getLock();
    }

    @Override
    public boolean serve() {
        // Tomcat's WebSocket code runs the application in the application's class loader and may leave it
        // set on this thread; a transport's thread must not keep it (Catalina would report it as a leak)
        Thread thread = Thread.currentThread();
        ClassLoader transportLoader = thread.getContextClassLoader();
        try {
            if (initialise()) {
                dispatch(SocketEvent.OPEN_READ); // as Tomcat does right after init: the handler takes what is there
                readUntilDone();
            }
            lock.lock();
            try {
                end();
            } finally {
                lock.unlock();
            }
        } finally {
            thread.setContextClassLoader(transportLoader);
        }
        return false;
    }

    /** Tomcat's upgrade processor for the handler, and the handler's {@code init}; false when it failed. */
    private boolean initialise() {
        HttpUpgradeHandler handler = token.httpUpgradeHandler();
        lock.lock();
        try {
            Processor created = handler instanceof InternalHttpUpgradeHandler
                    ? new UpgradeProcessorInternal(socket, token, null)
                    : new UpgradeProcessorExternal(socket, token, null);
            created.setSslSupport(socket.getSslSupport());
            ClassLoader previous = token.instanceManager() == null ? null : token.contextBind().bind(null);
            try {
                handler.init((WebConnection) created);
            } finally {
                if (token.instanceManager() != null) token.contextBind().unbind(previous);
            }
            processor = created;
            return true;
        } catch (Throwable t) {
            ExceptionUtils.handleThrowable(t);
            LOG.error("The upgrade handler " + handler.getClass().getName() + " failed to start; the connection is closed", t);
            return false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reads whenever the handler wants bytes, until the connection closes; after the client's end
     * of stream or a failure, waits for the handler to close it (as Tomcat's connectors leave that
     * to the handler).
     */
    private void readUntilDone() {
        ByteBuffer chunk = ByteBuffer.allocate(INPUT_BUFFER);
        try {
            while (true) {
                int room = input.awaitDemand();
                if (room < 0) break;
                chunk.clear().limit(Math.min(room, chunk.capacity()));
                int n;
                try {
                    n = endpoint.read(chunk, readTimeoutMillis());
                } catch (SocketTimeoutException e) {
                    dispatch(SocketEvent.TIMEOUT); // only with a read timeout: Tomcat's upgrade processors set none
                    continue;
                } catch (IOException e) {
                    if (socket.isClosed()) return;
                    socket.setError(e);
                    input.fail(e);
                    dispatch(SocketEvent.ERROR);
                    break;
                }
                if (n < 0) {
                    if (input.end()) dispatch(SocketEvent.OPEN_READ);
                    break;
                }
                if (input.put(chunk.flip())) dispatch(SocketEvent.OPEN_READ);
            }
            input.awaitClosed();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            socket.close();
        }
    }

    private int readTimeoutMillis() {
        long timeout = socket.getReadTimeout();
        return timeout > 0 ? (int) Math.min(timeout, Integer.MAX_VALUE) : Integer.MAX_VALUE;
    }

    /**
     * Hands {@code event} to the upgrade processor under the socket's lock, as Tomcat's connection
     * handler does: a processor that stays upgraded waits for its next read (unless this was a
     * write event, after which its read interest stands), a closed one ends the connection.
     */
    void dispatch(SocketEvent event) {
        lock.lock();
        try {
            if (ended || processor == null) return;
            SocketState state;
            try {
                state = processor.process(socket, event);
            } catch (IOException e) {
                LOG.debug("Upgraded connection failed", e);
                state = SocketState.CLOSED;
            } catch (Throwable t) {
                ExceptionUtils.handleThrowable(t);
                LOG.error("The upgrade handler failed on " + event, t);
                state = SocketState.CLOSED;
            }
            if (state == SocketState.CLOSED) {
                end();
            } else if (state == SocketState.UPGRADED && event != SocketEvent.OPEN_WRITE) {
                input.registerInterest();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Closes the socket and destroys the handler, once; under the lock. */
    private void end() {
        if (ended) return;
        ended = true;
        socket.close();
        if (processor != null) destroyHandler();
    }

    /** As Tomcat's connection handler cleans up an upgrade: the handler's destroy, in its application's context. */
    private void destroyHandler() {
        HttpUpgradeHandler handler = token.httpUpgradeHandler();
        InstanceManager instances = token.instanceManager();
        if (instances == null) {
            destroyQuietly(handler);
            return;
        }
        ClassLoader previous = token.contextBind().bind(null);
        try {
            destroyQuietly(handler);
            instances.destroyInstance(handler);
        } catch (Throwable t) {
            ExceptionUtils.handleThrowable(t);
            LOG.error("Could not release the upgrade handler " + handler.getClass().getName(), t);
        } finally {
            token.contextBind().unbind(previous);
        }
    }

    private static void destroyQuietly(HttpUpgradeHandler handler) {
        try {
            handler.destroy();
        } catch (Throwable t) {
            ExceptionUtils.handleThrowable(t);
            LOG.error("The upgrade handler " + handler.getClass().getName() + " failed in destroy()", t);
        }
    }

    /** The server stops: the handler is told ({@code STOP}: WebSocket closes with 1001) and closes in its time. */
    @Override
    public void drain() {
        try {
            executor.execute(() -> dispatch(SocketEvent.STOP));
        } catch (RejectedExecutionException e) {
            abort();
        }
    }

    @Override
    public void abort() {
        socket.close();
    }
}
