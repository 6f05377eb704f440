package dev.petrel.server.tls;

import dev.petrel.server.TlsEngineProvider;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.BiFunction;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * A server engine that becomes the engine of the host the client names: until the client's hello
 * has arrived it is the default host's engine, untouched; the first unwrap that has the whole
 * hello reads its server name ({@link ClientHelloServerName}) and, when that names a host with
 * settings of its own, swaps in an engine made for that host before any byte reaches an engine.
 * From then on every call goes to that engine.
 *
 * <p>Whether to ask for a client certificate is settled by both JSSE and BoringSSL from the
 * engine's configuration when the hello comes in, before anything the application can hook
 * (JSSE copies its settings when the handshake begins); choosing the engine by the name first is
 * how Tomcat's NIO connector serves each {@code SSLHostConfig} too.
 *
 * <p>Threads: the swap happens in an unwrap during the handshake, which Petrel's TLS endpoint runs
 * under both its locks; the current engine is volatile so that any later call, on any thread,
 * sees it.
 */
final class SniRoutingEngine extends SSLEngine {
    private static final SSLEngineResult WAITING_FOR_HELLO =
            new SSLEngineResult(SSLEngineResult.Status.BUFFER_UNDERFLOW, SSLEngineResult.HandshakeStatus.NEED_UNWRAP, 0, 0);

    private final SniRoutingEngines hosts;
    private volatile TlsEngineProvider.Engines owner;
    private volatile SSLEngine engine;
    private boolean routed;
    private boolean begun;

    SniRoutingEngine(SniRoutingEngines hosts, String peerHost, int peerPort) {
        super(peerHost, peerPort);
        this.hosts = hosts;
        this.owner = hosts.defaultEngines();
        this.engine = owner.newEngine(peerHost, peerPort);
    }

    /** The engines that made the engine in use now: the one to release it to. */
    TlsEngineProvider.Engines owner() {
        return owner;
    }

    /** The engine in use now. */
    SSLEngine engine() {
        return engine;
    }

    /**
     * Makes the engine of the host {@code hello} names, once the whole hello is there.
     *
     * @return false while the hello is incomplete and there is room for more of it
     */
    private boolean route(ByteBuffer hello) {
        ClientHelloServerName.Peek peek = ClientHelloServerName.peek(hello);
        // a hello larger than a record buffer holds never completes here: the default host's engine takes it
        if (!peek.complete() && hello.remaining() < engine.getSession().getPacketBufferSize()) return false;
        routed = true;
        TlsEngineProvider.Engines chosen = hosts.forServerName(peek.serverName());
        if (chosen == owner) return true;
        SSLEngine hostEngine = chosen.newEngine(getPeerHost(), getPeerPort());
        TlsEngineProvider.Engines previous = owner;
        SSLEngine unused = engine;
        owner = chosen;
        engine = hostEngine;
        previous.release(unused); // it saw no byte
        if (begun) {
            try {
                hostEngine.beginHandshake();
            } catch (SSLException e) {
                throw new IllegalStateException("a fresh engine refused to begin its handshake", e);
            }
        }
        return true;
    }

    @Override
    public SSLEngineResult unwrap(ByteBuffer src, ByteBuffer[] dsts, int offset, int length) throws SSLException {
        if (!routed && !route(src)) return WAITING_FOR_HELLO;
        return engine.unwrap(src, dsts, offset, length);
    }

    @Override
    public SSLEngineResult unwrap(ByteBuffer src, ByteBuffer dst) throws SSLException {
        if (!routed && !route(src)) return WAITING_FOR_HELLO;
        return engine.unwrap(src, dst);
    }

    @Override
    public SSLEngineResult unwrap(ByteBuffer src, ByteBuffer[] dsts) throws SSLException {
        if (!routed && !route(src)) return WAITING_FOR_HELLO;
        return engine.unwrap(src, dsts);
    }

    @Override
    public void beginHandshake() throws SSLException {
        begun = true;
        engine.beginHandshake();
    }

    // ---- the rest goes to the engine in use

    @Override
    public SSLEngineResult wrap(ByteBuffer[] srcs, int offset, int length, ByteBuffer dst) throws SSLException {
        return engine.wrap(srcs, offset, length, dst);
    }

    @Override
    public SSLEngineResult wrap(ByteBuffer src, ByteBuffer dst) throws SSLException {
        return engine.wrap(src, dst);
    }

    @Override
    public SSLEngineResult wrap(ByteBuffer[] srcs, ByteBuffer dst) throws SSLException {
        return engine.wrap(srcs, dst);
    }

    @Override
    public Runnable getDelegatedTask() {
        return engine.getDelegatedTask();
    }

    @Override
    public void closeInbound() throws SSLException {
        engine.closeInbound();
    }

    @Override
    public boolean isInboundDone() {
        return engine.isInboundDone();
    }

    @Override
    public void closeOutbound() {
        engine.closeOutbound();
    }

    @Override
    public boolean isOutboundDone() {
        return engine.isOutboundDone();
    }

    @Override
    public String[] getSupportedCipherSuites() {
        return engine.getSupportedCipherSuites();
    }

    @Override
    public String[] getEnabledCipherSuites() {
        return engine.getEnabledCipherSuites();
    }

    @Override
    public void setEnabledCipherSuites(String[] suites) {
        engine.setEnabledCipherSuites(suites);
    }

    @Override
    public String[] getSupportedProtocols() {
        return engine.getSupportedProtocols();
    }

    @Override
    public String[] getEnabledProtocols() {
        return engine.getEnabledProtocols();
    }

    @Override
    public void setEnabledProtocols(String[] protocols) {
        engine.setEnabledProtocols(protocols);
    }

    @Override
    public SSLSession getSession() {
        return engine.getSession();
    }

    @Override
    public SSLSession getHandshakeSession() {
        return engine.getHandshakeSession();
    }

    @Override
    public SSLEngineResult.HandshakeStatus getHandshakeStatus() {
        return engine.getHandshakeStatus();
    }

    @Override
    public void setUseClientMode(boolean mode) {
        engine.setUseClientMode(mode);
    }

    @Override
    public boolean getUseClientMode() {
        return engine.getUseClientMode();
    }

    @Override
    public void setNeedClientAuth(boolean need) {
        engine.setNeedClientAuth(need);
    }

    @Override
    public boolean getNeedClientAuth() {
        return engine.getNeedClientAuth();
    }

    @Override
    public void setWantClientAuth(boolean want) {
        engine.setWantClientAuth(want);
    }

    @Override
    public boolean getWantClientAuth() {
        return engine.getWantClientAuth();
    }

    @Override
    public void setEnableSessionCreation(boolean flag) {
        engine.setEnableSessionCreation(flag);
    }

    @Override
    public boolean getEnableSessionCreation() {
        return engine.getEnableSessionCreation();
    }

    @Override
    public SSLParameters getSSLParameters() {
        return engine.getSSLParameters();
    }

    @Override
    public void setSSLParameters(SSLParameters params) {
        engine.setSSLParameters(params);
    }

    @Override
    public String getApplicationProtocol() {
        return engine.getApplicationProtocol();
    }

    @Override
    public String getHandshakeApplicationProtocol() {
        return engine.getHandshakeApplicationProtocol();
    }

    @Override
    public void setHandshakeApplicationProtocolSelector(BiFunction<SSLEngine, List<String>, String> selector) {
        engine.setHandshakeApplicationProtocolSelector(selector);
    }

    @Override
    public BiFunction<SSLEngine, List<String>, String> getHandshakeApplicationProtocolSelector() {
        return engine.getHandshakeApplicationProtocolSelector();
    }

    @Override
    public String toString() {
        return "SniRoutingEngine[" + engine + "]";
    }
}
