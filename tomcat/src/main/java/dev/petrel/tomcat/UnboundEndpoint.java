package dev.petrel.tomcat;

import dev.petrel.server.engine.connection.Endpoint;
import java.net.InetSocketAddress;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;
import org.apache.tomcat.util.net.AbstractEndpoint;
import org.apache.tomcat.util.net.SocketProcessorBase;
import org.apache.tomcat.util.net.SocketWrapperBase;

/**
 * The Tomcat endpoint an {@link UpgradedSocket} must name: Tomcat's socket wrappers are built on
 * one, though Petrel's transports accept, read and dispatch. It never binds or accepts; what a
 * wrapper asks of its endpoint ({@code getUseAsyncIO}, the executor, events, close) the
 * upgraded socket answers itself. One serves every upgraded connection of a protocol.
 */
final class UnboundEndpoint extends AbstractEndpoint<Endpoint, Void> {
    private static final Log LOG = LogFactory.getLog(UnboundEndpoint.class);

    UnboundEndpoint() {
        setUseAsyncIO(false); // the wrappers' writes complete; no asynchronous operations
    }

    @Override
    protected InetSocketAddress getLocalAddress() {
        return null; // Petrel's listener is bound, not this
    }

    @Override
    protected SocketProcessorBase<Endpoint> createSocketProcessor(SocketWrapperBase<Endpoint> socketWrapper,
            org.apache.tomcat.util.net.SocketEvent event) {
        throw new UnsupportedOperationException("an upgraded Petrel connection dispatches its own events");
    }

    @Override
    public void bind() {
        throw new UnsupportedOperationException("Petrel's listener binds");
    }

    @Override
    public void startInternal() {
        throw new UnsupportedOperationException("Petrel's server starts");
    }

    @Override
    public void stopInternal() {
        throw new UnsupportedOperationException("Petrel's server stops");
    }

    @Override
    protected Log getLog() {
        return LOG;
    }

    @Override
    protected void doCloseServerSocket() {}

    @Override
    protected Void serverSocketAccept() {
        throw new UnsupportedOperationException("Petrel's listener accepts");
    }

    @Override
    protected boolean setSocketOptions(Void socket) {
        return false;
    }

    @Override
    protected void destroySocket(Void socket) {}
}
