package dev.petrel.nativetls;

import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import dev.petrel.server.TlsEngineProvider;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslCachingX509KeyManagerFactory;
import io.netty.handler.ssl.OpenSslContextOption;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.netty.handler.ssl.util.KeyManagerFactoryWrapper;
import io.netty.handler.ssl.util.TrustManagerFactoryWrapper;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Server engines over one BoringSSL {@code SSL_CTX} (Netty's reference-counted OpenSSL context),
 * set up as the JSSE engine is: the configured protocols (TLS 1.3 and 1.2 by default), the
 * configured cipher suites BoringSSL has, in the server's order, the groups X25519, P-256 and
 * P-384, ALPN, client certificates checked by the JDK's trust manager, and session resumption by
 * tickets whose keys BoringSSL makes and rotates itself, and an OCSP response stapled when its
 * certificate is served ({@link StaplingKeyManager}). BoringSSL refuses renegotiation as a server,
 * always.
 *
 * <p>The certificate is chosen per handshake by Petrel's key manager (SNI, the client's signature
 * algorithms), through Netty's caching key material provider, so that each certificate and key
 * is converted for BoringSSL once per context rather than once per handshake.
 *
 * <p>Native memory: every engine holds an {@code SSL}, freed by {@link #release} as its connection
 * closes (Petrel's TLS endpoint calls it once, when no thread uses the engine any more); the
 * context holds the {@code SSL_CTX}, freed when it is {@linkplain #close() closed} and its last
 * engine released. Nothing is left to a finalizer or a cleaner.
 */
final class NativeEngines implements TlsEngineProvider.Engines {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.tls");

    private final SslContext context;
    private final ByteBufAllocator allocator;
    /** Engines made and not released yet, in this JVM: each holds an {@code SSL} in native memory. */
    private static final LongAdder LIVE = new LongAdder();

    private final AtomicBoolean closed = new AtomicBoolean();

    private NativeEngines(SslContext context, ByteBufAllocator allocator) {
        this.context = context;
        this.allocator = allocator;
    }

    static NativeEngines create(TlsEngineProvider.Setup setup) throws TlsConfigException {
        TlsConfig config = setup.config();
        checkProtocols(config.protocols());
        if (setup.keyManager().getServerAliases("EdDSA", null) != null) {
            // Netty's key material manager knows RSA and EC keys only: the handshake would fail with internal_error
            throw new TlsConfigException("TLS: the native engine cannot serve Ed25519 certificates (netty-tcnative"
                    + " chooses RSA and EC keys only); use an EC or RSA certificate, or --tls-engine jsse");
        }
        List<String> suites = supportedSuites(config.cipherSuites());
        boolean stapling = !setup.ocspResponses().isEmpty();
        X509ExtendedKeyManager keys = stapling ? new StaplingKeyManager(setup.keyManager(), setup.ocspResponses()) : setup.keyManager();
        SslContextBuilder builder = SslContextBuilder
                // converted for BoringSSL once per alias: the aliases name fixed certificates of this context
                .forServer(new OpenSslCachingX509KeyManagerFactory(new KeyManagerFactoryWrapper(keys)))
                .enableOcsp(stapling)
                .sslProvider(SslProvider.OPENSSL_REFCNT)
                .protocols(config.protocols())
                .ciphers(suites, SupportedCipherSuiteFilter.INSTANCE)
                .option(OpenSslContextOption.GROUPS, setup.namedGroups().toArray(String[]::new))
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        // BoringSSL through tcnative cannot send no_application_protocol: a client whose
                        // offer shares nothing with ours gets no ALPN answer and keeps to its default
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        config.applicationProtocols()));
        switch (config.clientAuth()) {
            case NONE -> builder.clientAuth(ClientAuth.NONE);
            case OPTIONAL -> builder.clientAuth(ClientAuth.OPTIONAL);
            case REQUIRED -> builder.clientAuth(ClientAuth.REQUIRE);
        }
        if (setup.trustManager() != null) builder.trustManager(new TrustManagerFactoryWrapper(setup.trustManager()));
        SslContext context;
        try {
            context = builder.build();
        } catch (SSLException | RuntimeException e) {
            throw new TlsConfigException("TLS: BoringSSL cannot make a TLS context (" + e.getMessage() + ")", e);
        }
        // Netty turns tickets off to behave like the JDK did; no keys given: BoringSSL makes them and
        // rotates them every two days, so a client resumes without a full handshake, as JSSE allows too
        ((OpenSslSessionContext) context.sessionContext()).setTicketKeys();
        // BoringSSL sends two TLS 1.3 tickets per full handshake, the JDK one; tcnative cannot set the count for
        // BoringSSL (its setNumTickets answers false), so the cost of the second is in the lab's figures
        return new NativeEngines(context, PooledByteBufAllocator.DEFAULT);
    }

    /** BoringSSL speaks TLS 1.0 to 1.3: anything else asked for is a configuration error, as on the JDK. */
    private static void checkProtocols(List<String> protocols) throws TlsConfigException {
        Set<String> supported = new LinkedHashSet<>();
        if (OpenSsl.isCipherSuiteAvailable("TLS_AES_128_GCM_SHA256")) supported.add("TLSv1.3"); // a TLS 1.3 suite: a library that has TLS 1.3
        supported.add("TLSv1.2"); // TLS 1.1 and 1.0 too, but the server refuses those before (TlsConfig.SUPPORTED_PROTOCOLS)
        for (String protocol : protocols) {
            if (!supported.contains(protocol)) {
                throw new TlsConfigException("TLS: protocol " + protocol + " is not supported by " + OpenSsl.versionString()
                        + " (supported: " + String.join(", ", supported) + ")");
            }
        }
    }

    private static List<String> supportedSuites(List<String> wanted) throws TlsConfigException {
        List<String> suites = new ArrayList<>();
        for (String suite : wanted) {
            if (OpenSsl.isCipherSuiteAvailable(suite)) {
                suites.add(suite);
            } else {
                LOG.log(System.Logger.Level.DEBUG, () -> "TLS: cipher suite " + suite + " is not supported by "
                        + OpenSsl.versionString() + "; left out");
            }
        }
        if (suites.isEmpty()) {
            throw new TlsConfigException("TLS: none of the cipher suites " + wanted + " is supported by " + OpenSsl.versionString());
        }
        return suites;
    }

    @Override
    public SSLEngine newEngine(String peerHost, int peerPort) {
        SSLEngine engine = context.newEngine(allocator, peerHost, peerPort);
        LIVE.increment();
        return engine;
    }

    @Override
    public void release(SSLEngine engine) {
        if (engine instanceof ReferenceCountedOpenSslEngine counted && counted.refCnt() > 0) {
            counted.release();
            LIVE.decrement();
        }
    }

    /** BoringSSL reads and writes direct buffers in place; over heap ones Netty's engine copies each record through pooled native memory. */
    @Override
    public boolean wantsDirectBuffers() {
        return true;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) ReferenceCountUtil.release(context);
    }

    /** Engines made by any context of this JVM and not released yet: a leak shows here. */
    static long liveEngines() {
        return LIVE.sum();
    }

    @Override
    public String description() {
        String tcnative = io.netty.internal.tcnative.SSL.class.getPackage().getImplementationVersion();
        return OpenSsl.versionString() + " (netty-tcnative" + (tcnative == null ? "" : " " + tcnative) + ")";
    }
}
