package dev.petrel.server.tls;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * The JDK's engine made to behave as Netty's over BoringSSL does: it never hands out delegated
 * tasks, but does their work inside the {@code wrap} or {@code unwrap} that needs it. With it a
 * test can drive the handshake an event loop runs whole (see
 * {@link TlsEndpoint#continueHandshake}) without a native library.
 */
final class TasksInsideEngine extends SSLEngine {
    private final SSLEngine engine;
    private final List<String> taskThreads = new CopyOnWriteArrayList<>();
    private volatile int tasksRun;

    TasksInsideEngine(SSLEngine engine) {
        this.engine = engine;
    }

    /** Delegated tasks the wrapped engine had, run inside a wrap or an unwrap. */
    int tasksRun() {
        return tasksRun;
    }

    /** The names of the threads those tasks ran on, in order. */
    List<String> taskThreads() {
        return List.copyOf(taskThreads);
    }

    @Override
    public SSLEngineResult wrap(ByteBuffer[] srcs, int offset, int length, ByteBuffer dst) throws SSLException {
        return withTasksRun(engine.wrap(srcs, offset, length, dst));
    }

    @Override
    public SSLEngineResult unwrap(ByteBuffer src, ByteBuffer[] dsts, int offset, int length) throws SSLException {
        return withTasksRun(engine.unwrap(src, dsts, offset, length));
    }

    private SSLEngineResult withTasksRun(SSLEngineResult result) {
        if (result.getHandshakeStatus() != HandshakeStatus.NEED_TASK) return result;
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
            tasksRun++;
            taskThreads.add(Thread.currentThread().getName());
        }
        return new SSLEngineResult(result.getStatus(), engine.getHandshakeStatus(), result.bytesConsumed(), result.bytesProduced());
    }

    @Override
    public Runnable getDelegatedTask() {
        return null;
    }

    @Override
    public HandshakeStatus getHandshakeStatus() {
        return engine.getHandshakeStatus();
    }

    // ---- the rest is the wrapped engine's ----

    @Override
    public void beginHandshake() throws SSLException {
        engine.beginHandshake();
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
    public SSLParameters getSSLParameters() {
        return engine.getSSLParameters();
    }

    @Override
    public void setSSLParameters(SSLParameters parameters) {
        engine.setSSLParameters(parameters);
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
}
