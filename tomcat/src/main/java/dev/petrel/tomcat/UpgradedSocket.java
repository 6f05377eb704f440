package dev.petrel.tomcat;

import dev.petrel.server.TlsDetails;
import dev.petrel.server.engine.connection.Endpoint;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.CompletionHandler;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.tomcat.util.net.ApplicationBufferHandler;
import org.apache.tomcat.util.net.SSLSupport;
import org.apache.tomcat.util.net.SendfileDataBase;
import org.apache.tomcat.util.net.SendfileState;
import org.apache.tomcat.util.net.SocketBufferHandler;
import org.apache.tomcat.util.net.SocketEvent;
import org.apache.tomcat.util.net.SocketWrapperBase;

/**
 * Tomcat's view of a connection that switched protocols, over Petrel's endpoint: what Tomcat's
 * upgrade handlers read, write and close. WebSocket's {@code WsHttpUpgradeHandler} works on this
 * directly; a Servlet {@code HttpUpgradeHandler} through Tomcat's upgrade streams, which sit on it.
 *
 * <p>Reads take from {@link UpgradeInput}, which the connection's one reader fills (a blocking read
 * on the thread serving an event reads the socket first, see {@link UpgradedConnection}). Writes go to
 * the endpoint and return once the client took them (Petrel's write timeout applies), so a
 * "non-blocking" write never leaves bytes behind and the socket is always ready for the next one:
 * as for Petrel's exchanges through this connector, the threads that write are Tomcat's and the
 * application's, never an event loop. There is no asynchronous I/O ({@link #hasAsyncIO()} is
 * false): Tomcat's handlers then take the paths its NIO connector uses.
 */
final class UpgradedSocket extends SocketWrapperBase<Endpoint> {
    private static final int WRITE_BUFFER = 8192; // Tomcat's default socket.appWriteBufSize

    private final UpgradedConnection connection;
    private final UpgradeInput input;
    private final Executor executor;
    private final AtomicBoolean closing = new AtomicBoolean();

    UpgradedSocket(Endpoint endpoint, UnboundEndpoint tomcatEndpoint, UpgradedConnection connection,
            UpgradeInput input, Executor executor) {
        super(endpoint, tomcatEndpoint);
        this.connection = connection;
        this.input = input;
        this.executor = executor;
        this.socketBufferHandler = new SocketBufferHandler(0, WRITE_BUFFER, true); // direct: the endpoint writes it as it is, with no copy into native memory
    }

    // ---- addresses, known up front

    @Override
    protected void populateRemoteHost() {
        remoteHost = PetrelProcessor.literal(getSocket().remoteAddress()); // no lookups, as enableLookups="false"
    }

    @Override
    protected void populateRemoteAddr() {
        remoteAddr = PetrelProcessor.literal(getSocket().remoteAddress());
    }

    @Override
    protected void populateRemotePort() {
        remotePort = getSocket().remoteAddress().getPort();
    }

    @Override
    protected void populateLocalName() {
        localName = getSocket().localAddress().getHostString();
    }

    @Override
    protected void populateLocalAddr() {
        localAddr = PetrelProcessor.literal(getSocket().localAddress());
    }

    @Override
    protected void populateLocalPort() {
        InetSocketAddress local = getSocket().localAddress();
        localPort = local.getPort();
    }

    // ---- reads

    @Override
    public int read(boolean block, byte[] b, int off, int len) throws IOException {
        if (block && len > 0) connection.readOwnBlocking();
        return input.take(b, off, len, block, getReadTimeout());
    }

    @Override
    public int read(boolean block, ByteBuffer to) throws IOException {
        if (block && to.hasRemaining()) connection.readOwnBlocking();
        return input.take(to, block, getReadTimeout());
    }

    /** A read timeout counts from when it is set, or from the last bytes after that. */
    @Override
    public void setReadTimeout(long readTimeout) {
        super.setReadTimeout(readTimeout);
        if (connection != null) connection.restartReadTimer(); // null while the superclass's constructor runs
    }

    @Override
    public boolean isReadyForRead() {
        return input.ready();
    }

    @Override
    public void registerReadInterest() {
        input.registerInterest();
    }

    /** Used by Tomcat's HTTP/2 to read into its own buffers; an upgrade handler reads through {@link #read}. */
    @Override
    public void setAppReadBufHandler(ApplicationBufferHandler handler) {}

    // ---- writes

    /** Writes all of {@code from}, whether asked to block or not (see the class comment). */
    @Override
    protected void doWrite(boolean block, ByteBuffer from) throws IOException {
        getSocket().write(from);
    }

    @Override
    protected boolean flushNonBlocking() throws IOException {
        flushBlocking();
        return false; // nothing is left
    }

    /** Writes never leave bytes behind, so the socket can take more now: the handler is told at once, on the executor. */
    @Override
    public void registerWriteInterest() {
        processSocket(SocketEvent.OPEN_WRITE, true);
    }

    @Override
    protected <A> OperationState<A> newOperationState(boolean read, ByteBuffer[] buffers, int offset, int length,
            BlockingMode block, long timeout, TimeUnit unit, A attachment, CompletionCheck check,
            CompletionHandler<Long, ? super A> handler, Semaphore semaphore, VectoredIOCompletionHandler<A> completion) {
        throw new UnsupportedOperationException("no asynchronous I/O on an upgraded Petrel connection (hasAsyncIO() is false)");
    }

    // ---- events, threads, close

    /** An event for the upgrade handler: run on the connector's executor, or on this thread. */
    @Override
    public void processSocket(SocketEvent event, boolean dispatch) {
        if (dispatch) executor.execute(() -> connection.dispatch(event));
        else connection.dispatch(event);
    }

    @Override
    public void execute(Runnable runnable) {
        executor.execute(runnable);
    }

    /** Closes the connection now; its reader then ends the upgrade handler. Idempotent, from any thread. */
    @Override
    public void close() {
        if (closing.compareAndSet(false, true)) doClose();
    }

    @Override
    public boolean isClosed() {
        return closing.get();
    }

    @Override
    protected void doClose() {
        input.close();
        getSocket().close();
    }

    // ---- TLS and sendfile

    @Override
    public SSLSupport getSslSupport() {
        TlsDetails tls = getSocket().tls();
        return tls == null ? null : new TlsDetailsSupport(tls);
    }

    /** A renegotiation for a client certificate: Petrel negotiates client certificates in the handshake only. */
    @Override
    public void doClientAuth(SSLSupport sslSupport) {}

    @Override
    public SendfileDataBase createSendfileData(String filename, long pos, long length) {
        throw new UnsupportedOperationException("no sendfile on an upgraded connection");
    }

    @Override
    public SendfileState processSendfile(SendfileDataBase sendfileData) {
        return SendfileState.ERROR;
    }
}
