package dev.petrel.microbench;

import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.tls.SelfSignedCertificate;
import dev.petrel.server.tls.TlsContext;
import dev.petrel.server.tls.TlsContextFactory;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A full TLS 1.3 handshake in memory (ECDSA P-256 certificate, X25519 key exchange, no
 * resumption), the server's engine being a candidate for issue 19: the JDK's JSSE, or BoringSSL
 * through Netty's tcnative ({@code ReferenceCountedOpenSslEngine}, JNI), or the system's OpenSSL 3 through
 * {@code java.lang.foreign} ({@link OpenSslServerHandshake}). The client is the same
 * JSSE engine for both, so the difference between the two scores is the servers'. Each operation
 * is one handshake between fresh engines; the server's share is timed apart (only its wrap and
 * unwrap calls) and printed per handshake at the end of each iteration.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class TlsHandshakeBenchmark {
    private static final String[] GROUPS = {"x25519"};
    /** -jvmArgsAppend -Dtrace=true prints every wrap and unwrap result: engines differ in how they report their state. */
    private static final boolean TRACE = Boolean.getBoolean("trace");

    /**
     * jsse, boringssl: the bare engines (an SSLContext, Netty's SslContextBuilder, which turns
     * tickets off); boringssl-tickets: that context with BoringSSL's own ticket keys, as Petrel's
     * native engine has them, so that the two differ only in Petrel's layer; openssl: the
     * system's OpenSSL 3 by hand-written FFM downcalls; petrel-jsse, petrel-native: the engines as
     * Petrel's HTTPS listener makes them (TlsContextFactory: the SNI key manager, Petrel's
     * protocols, suites and groups, tickets on), which is what --tls-engine chooses between.
     */
    @Param({"jsse", "boringssl", "boringssl-tickets", "openssl", "petrel-jsse", "petrel-native"})
    public String server;

    private SSLContext clientContext;
    private SSLContext jsse;
    private SslContext boringssl;
    private OpenSslServerHandshake openssl;
    private TlsContext petrel;
    private final ByteBuffer toServer = ByteBuffer.allocate(64 * 1024);
    private final ByteBuffer toClient = ByteBuffer.allocate(64 * 1024);
    private final ByteBuffer plain = ByteBuffer.allocate(64 * 1024);
    private long serverNanos;
    private boolean finished; // a result said FINISHED: Netty's engine may report NEED_UNWRAP after it
    private long handshakes;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Path dir = Files.createTempDirectory("petrel-jmh-tls");
        SelfSignedCertificate certificate = SelfSignedCertificate.obtain(dir);
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(certificate.keyStore())) {
            store.load(in, certificate.password());
        }
        String alias = store.aliases().nextElement();
        PrivateKey key = (PrivateKey) store.getKey(alias, certificate.password());
        X509Certificate cert = certificate.certificate();

        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, certificate.password());
        jsse = SSLContext.getInstance("TLSv1.3");
        jsse.init(keys.getKeyManagers(), null, null);

        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", cert);
        TrustManagerFactory trusting = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trusting.init(trust);
        clientContext = SSLContext.getInstance("TLSv1.3");
        clientContext.init(null, trusting.getTrustManagers(), null);

        boringssl = SslContextBuilder.forServer(key, cert).sslProvider(SslProvider.OPENSSL_REFCNT)
                .protocols("TLSv1.3").build();
        if (server.equals("boringssl-tickets")) ((OpenSslSessionContext) boringssl.sessionContext()).setTicketKeys();

        if (server.startsWith("petrel-")) {
            petrel = TlsContextFactory.create(TlsConfig.builder().certificate(certificate.source())
                    .engine(server.substring("petrel-".length())).build());
        }
        if (server.equals("openssl")) {
            Path keyPem = Files.writeString(dir.resolve("key.pem"), "-----BEGIN PRIVATE KEY-----\n"
                    + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(key.getEncoded()) + "\n-----END PRIVATE KEY-----\n");
            try {
                openssl = new OpenSslServerHandshake(certificate.certificateFile(), keyPem);
            } catch (Throwable e) {
                throw new IllegalStateException("OpenSSL through java.lang.foreign: " + e, e);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        if (openssl != null) openssl.close();
        if (petrel != null) petrel.engines().close();
    }

    @Setup(Level.Iteration)
    public void resetTimes() {
        serverNanos = 0;
        handshakes = 0;
    }

    @TearDown(Level.Iteration)
    public void printServerShare() {
        System.out.printf("  server %s: %.1f us of its own per handshake%n", server, serverNanos / 1000.0 / Math.max(1, handshakes));
    }

    @Benchmark
    public int handshake() throws Throwable {
        // no peer name: the client caches no session, so every handshake is a full one (with a name,
        // a JSSE client resumes the session the JSSE server's ticket gave it, and measures that instead)
        SSLEngine client = clientContext.createSSLEngine();
        client.setUseClientMode(true);
        SSLParameters parameters = client.getSSLParameters();
        parameters.setNamedGroups(GROUPS);
        client.setSSLParameters(parameters);
        if (openssl != null) return handshakeWithOpenSsl(client);
        long created = System.nanoTime(); // making and freeing the engine is the server's per-connection cost too
        SSLEngine serverEngine = petrel != null ? petrel.newEngine()
                : server.equals("jsse") ? jsse.createSSLEngine() : boringssl.newEngine(PooledByteBufAllocator.DEFAULT);
        serverEngine.setUseClientMode(false);
        serverNanos += System.nanoTime() - created;
        try {
            client.beginHandshake();
            serverEngine.beginHandshake();
            run(client, serverEngine);
            handshakes++;
            return client.getSession().getCipherSuite().length();
        } finally {
            long freed = System.nanoTime();
            if (petrel != null) petrel.release(serverEngine);
            else if (serverEngine instanceof ReferenceCountedOpenSslEngine native_) native_.release(); // frees the SSL now
            serverNanos += System.nanoTime() - freed;
        }
    }

    /** The same handshake, the server being OpenSSL over memory BIOs: its SSL made, driven and freed in the timing. */
    private int handshakeWithOpenSsl(SSLEngine client) throws Throwable {
        long start = System.nanoTime();
        openssl.begin();
        serverNanos += System.nanoTime() - start;
        try {
            client.beginHandshake();
            toServer.clear();
            toClient.clear();
            boolean clientDone = false;
            boolean serverDone = false;
            boolean[] done = new boolean[1];
            for (int round = 0; round < 100 && !(clientDone && serverDone && toServer.position() == 0 && toClient.position() == 0);
                 round++) {
                clientDone |= step(client, toServer, toClient, false);
                byte[] fromClient = new byte[toServer.flip().remaining()];
                toServer.get(fromClient).clear();
                long turn = System.nanoTime();
                byte[] reply = openssl.step(fromClient, fromClient.length, done);
                serverNanos += System.nanoTime() - turn;
                serverDone |= done[0];
                toClient.put(reply);
            }
            if (!(clientDone && serverDone)) throw new IllegalStateException("the OpenSSL handshake did not finish");
            handshakes++;
            return client.getSession().getCipherSuite().length();
        } finally {
            long freed = System.nanoTime();
            openssl.end();
            serverNanos += System.nanoTime() - freed;
        }
    }

    /** Moves records both ways until both engines are done. */
    private void run(SSLEngine client, SSLEngine serverEngine) throws Exception {
        toServer.clear();
        toClient.clear();
        boolean clientDone = false;
        boolean serverDone = false;
        for (int round = 0; round < 100; round++) {
            clientDone |= step(client, toServer, toClient, false);
            serverDone |= step(serverEngine, toClient, toServer, true);
            if (clientDone && serverDone && toServer.position() == 0 && toClient.position() == 0) return;
        }
        throw new IllegalStateException("the handshake did not finish: client " + client.getHandshakeStatus() + ", server "
                + serverEngine.getHandshakeStatus() + ", bytes waiting for the server " + toServer.position() + ", for the client "
                + toClient.position());
    }

    /** One engine's turn: unwraps what came in, runs tasks, wraps what it has to say. Returns whether it is done. */
    private boolean step(SSLEngine engine, ByteBuffer out, ByteBuffer in, boolean timed) throws Exception {
        long start = timed ? System.nanoTime() : 0;
        finished = false;
        in.flip();
        while (true) {
            HandshakeStatus status = engine.getHandshakeStatus();
            if (status == HandshakeStatus.NEED_TASK) {
                Runnable task;
                while ((task = engine.getDelegatedTask()) != null) task.run();
            } else if (status == HandshakeStatus.NEED_WRAP) {
                SSLEngineResult result = engine.wrap(ByteBuffer.allocate(0), out);
                if (result.getStatus() != SSLEngineResult.Status.OK) throw new IllegalStateException("wrap: " + result);
                finished |= result.getHandshakeStatus() == HandshakeStatus.FINISHED;
                if (TRACE) System.out.println((timed ? "server " : "client ") + result.toString().replace('\n', ' '));
            } else if (status != HandshakeStatus.NEED_WRAP && in.hasRemaining()) { // post-handshake too: a session ticket
                plain.clear();
                SSLEngineResult result = engine.unwrap(in, plain);
                if (result.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) break;
                if (result.getStatus() != SSLEngineResult.Status.OK) throw new IllegalStateException("unwrap: " + result);
                finished |= result.getHandshakeStatus() == HandshakeStatus.FINISHED;
                if (TRACE) System.out.println((timed ? "server " : "client ") + result.toString().replace('\n', ' '));
            } else {
                break;
            }
        }
        if (engine instanceof ReferenceCountedOpenSslEngine && engine.getHandshakeStatus() == HandshakeStatus.NEED_UNWRAP
                && !in.hasRemaining()) {
            // OpenSSL finishes its side of the handshake in the call after the one that took the
            // client's Finished: Netty learns of it from a wrap with nothing to send
            SSLEngineResult result = engine.wrap(ByteBuffer.allocate(0), out);
            finished |= result.getHandshakeStatus() == HandshakeStatus.FINISHED;
            if (TRACE) System.out.println("server extra " + result.toString().replace('\n', ' '));
        }
        in.compact();
        if (timed) serverNanos += System.nanoTime() - start;
        HandshakeStatus status = engine.getHandshakeStatus();
        return finished || status == HandshakeStatus.NOT_HANDSHAKING || status == HandshakeStatus.FINISHED;
    }
}
