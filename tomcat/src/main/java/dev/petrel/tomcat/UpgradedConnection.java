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
import java.util.concurrent.TimeUnit;
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
 * <p>Who reads the socket depends on the transport; either way one reader reads, and only when the
 * handler asked for bytes (a registered read interest, or a blocked read):
 * <ul>
 *   <li>where connections wait without a thread ({@code nio}), the event loop: the connection waits
 *       there between events, holding no thread, and the loop reads what came straight into
 *       {@link UpgradeInput}; {@code OPEN_READ} then runs on a worker, as Tomcat's poller hands a
 *       socket to its executor. Nobody wanting bytes, the loop does not watch the socket at all;
 *   <li>elsewhere, the thread that serves the connection, in a loop of reads and dispatches.
 * </ul>
 * A blocking read on the thread serving an event reads the socket itself: nobody else would while
 * that event runs. Events from other threads run on the connector's executor.
 */
final class UpgradedConnection implements ProtocolConnection {
    private static final Log LOG = LogFactory.getLog(UpgradedConnection.class);
    private static final int INPUT_BUFFER = 8192; // Tomcat's default socket.appReadBufSize

    private final Endpoint endpoint;
    private final UpgradeToken token;
    private final Executor executor;
    private final boolean waitsOnLoop;
    private final UpgradeInput input;
    private final UpgradedSocket socket;
    private final ReentrantLock lock;
    private volatile Thread serving; // the thread in serve(), which may read the socket itself
    private Processor processor;     // set once the handler is initialised
    private boolean ended;           // under lock
    // On the loop's side (waitsOnLoop): handed to the serving worker through the transport's queues
    private boolean started;
    private IOException readFailure;
    private boolean readDue;         // bytes or the end came for a registered read interest
    private volatile long lastInput = System.nanoTime(); // only kept while a read timeout is set

    UpgradedConnection(Endpoint endpoint, UpgradeToken token, UnboundEndpoint tomcatEndpoint, Executor executor) {
        this.endpoint = endpoint;
        this.token = token;
        this.executor = executor;
        this.waitsOnLoop = endpoint.waitsWithoutThread() && endpoint.wakesOnLoop();
        this.input = new UpgradeInput(INPUT_BUFFER, waitsOnLoop ? endpoint::wakeOnLoop : () -> {});
        this.socket = new UpgradedSocket(endpoint, tomcatEndpoint, this, input, executor);
        this.lock = socket.getLock();
    }

    @Override
    public boolean serve() {
        // Tomcat's WebSocket code runs the application in the application's class loader and may leave it
        // set on this thread; a transport's thread must not keep it (Catalina would report it as a leak)
        Thread thread = Thread.currentThread();
        ClassLoader transportLoader = thread.getContextClassLoader();
        serving = thread;
        try {
            return waitsOnLoop ? serveEvent() : serveUntilDone();
        } finally {
            serving = null;
            thread.setContextClassLoader(transportLoader);
        }
    }

    /** On a thread of its own: the handler's whole life, reading on this thread. */
    private boolean serveUntilDone() {
        if (initialise()) {
            dispatch(SocketEvent.OPEN_READ); // as Tomcat does right after init: the handler takes what is there
            readUntilDone();
        }
        endLocked();
        return false;
    }

    /**
     * Between waits on the loop, on a worker: the first call starts the handler, each later one
     * hands it what the loop found (bytes, the end, a failure, a timeout). The transport calls it
     * on the loop itself only once the endpoint is closed ({@link #servesOnceClosed()}).
     */
    private boolean serveEvent() {
        if (endpoint.onEventLoop()) {
            // closed while waiting: the handler ends off the loop, which must neither wait for the socket's lock nor
            // run the application's close callbacks (WebSocket's @OnClose)
            try {
                executor.execute(this::endLocked);
            } catch (RejectedExecutionException e) {
                Thread.ofVirtual().name("petrel-upgrade-end").start(this::endLocked); // the executor has stopped
            }
            return false;
        }
        if (!started) {
            started = true;
            if (!initialise()) {
                endLocked();
                return false;
            }
            dispatch(SocketEvent.OPEN_READ); // as Tomcat does right after init: the handler takes what is there
        } else if (readFailure != null) {
            if (!socket.isClosed()) {
                socket.setError(readFailure);
                dispatch(SocketEvent.ERROR);
            }
            readFailure = null;
        } else if (readDue) {
            readDue = false;
            dispatch(SocketEvent.OPEN_READ);
        } else if (readTimedOut()) {
            lastInput = System.nanoTime();
            dispatch(SocketEvent.TIMEOUT); // only with a read timeout: Tomcat's upgrade processors set none
        }
        if (!socket.isClosed()) return true; // wait on the loop for the next event
        endLocked();
        return false;
    }

    /** The read timeout was set: it counts from now (bytes before it were not timed). */
    void restartReadTimer() {
        lastInput = System.nanoTime();
    }

    private boolean readTimeoutSet() {
        return socket.getReadTimeout() > 0;
    }

    /**
     * On the loop, while the connection waits: reads what came if the handler wants it, and says
     * whether there is an event to serve.
     */
    @Override
    public boolean poll() {
        if (!started || socket.isClosed()) return true;
        try {
            if (!input.readAvailable(endpoint)) return false;
            if (readTimeoutSet()) lastInput = System.nanoTime();
            readDue = true;
        } catch (IOException e) {
            readFailure = e;
        }
        return true;
    }

    /** Nobody wants bytes: the loop leaves the socket alone until someone does (see {@link UpgradeInput}). */
    @Override
    public boolean awaitsWake() {
        return waitsOnLoop && started && input.sleepUnlessWanted();
    }

    /** The read timeout, should anyone set one (Tomcat's upgrade processors set none). */
    @Override
    public long wakeDeadline() {
        long timeout = socket.getReadTimeout();
        return timeout > 0 ? lastInput + TimeUnit.MILLISECONDS.toNanos(timeout) : System.nanoTime() + TimeUnit.HOURS.toNanos(1);
    }

    private boolean readTimedOut() {
        long timeout = socket.getReadTimeout();
        return timeout > 0 && System.nanoTime() - lastInput >= TimeUnit.MILLISECONDS.toNanos(timeout);
    }

    /** A handler or the application closing the connection while it waits on the loop: the handler is ended then. */
    @Override
    public boolean servesOnceClosed() {
        return true;
    }

    /**
     * A blocking read on the thread serving an event: nobody else reads while it runs (the loop
     * waits for serve() to return, the thread-per-connection reader is this thread), so it reads
     * the socket itself, at most what the input has room for.
     */
    void readOwnBlocking() throws IOException {
        if (serving != Thread.currentThread() || input.ready()) return;
        ByteBuffer chunk = ByteBuffer.allocate(input.room()); // not ready: the input is empty, all of it is room
        int n;
        try {
            n = endpoint.read(chunk, readTimeoutMillis());
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            input.fail(e);
            throw e;
        }
        input.putOwnRead(chunk.flip(), n);
    }

    private void endLocked() {
        lock.lock();
        try {
            end();
        } finally {
            lock.unlock();
        }
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
