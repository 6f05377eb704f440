package dev.petrel.server.tls;

import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import dev.petrel.server.TlsEngineProvider;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;

/**
 * The built-in engine, {@value TlsConfig#JSSE}: the JDK's own TLS. A {@code "TLS"}
 * {@link SSLContext} over the setup's key manager, and {@link SSLParameters} every engine gets a
 * copy of: the configured protocols (each must be supported), the cipher suites the JDK has (in
 * the server's order), the named groups, ALPN, client authentication. JSSE engines are plain Java
 * objects: nothing to release.
 */
public final class JsseEngines implements TlsEngineProvider.Engines {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.tls");

    private final SSLContext sslContext;
    private final SSLParameters parameters;

    private JsseEngines(SSLContext sslContext, SSLParameters parameters) {
        this.sslContext = sslContext;
        this.parameters = parameters;
    }

    /** The provider {@link TlsEngines} answers {@value TlsConfig#JSSE} with. */
    static final TlsEngineProvider PROVIDER = new TlsEngineProvider() {
        @Override
        public String name() {
            return TlsConfig.JSSE;
        }

        @Override
        public TlsEngineProvider.Engines engines(Setup setup) throws TlsConfigException {
            return create(setup);
        }
    };

    static JsseEngines create(TlsEngineProvider.Setup setup) throws TlsConfigException {
        if (!setup.ocspResponses().isEmpty()) {
            throw new TlsConfigException("TLS: the JDK's engine cannot staple an OCSP response from a file: use --tls-engine native,"
                    + " or let the JDK fetch responses itself (-Djdk.tls.server.enableStatusRequestExtension=true) without --tls-ocsp-response");
        }
        SSLContext sslContext;
        try {
            sslContext = SSLContext.getInstance("TLS");
            TrustManager[] trust = setup.trustManager() == null ? null : new TrustManager[] {setup.trustManager()};
            sslContext.init(new KeyManager[] {setup.keyManager()}, trust, null);
        } catch (GeneralSecurityException e) {
            throw new TlsConfigException("TLS: the JDK cannot make a TLS context (" + e.getMessage() + ")", e);
        }
        return new JsseEngines(sslContext, parameters(setup, sslContext));
    }

    private static SSLParameters parameters(TlsEngineProvider.Setup setup, SSLContext sslContext) throws TlsConfigException {
        TlsConfig config = setup.config();
        SSLParameters supported = sslContext.getSupportedSSLParameters();
        Set<String> supportedProtocols = Set.of(supported.getProtocols());
        for (String protocol : config.protocols()) {
            if (!supportedProtocols.contains(protocol)) {
                throw new TlsConfigException("TLS: protocol " + protocol + " is not supported by this JDK (supported: "
                        + String.join(", ", TlsConfig.SUPPORTED_PROTOCOLS.stream().filter(supportedProtocols::contains).toList()) + ")");
            }
        }
        Set<String> supportedSuites = Set.of(supported.getCipherSuites());
        List<String> suites = new ArrayList<>();
        for (String suite : config.cipherSuites()) {
            if (supportedSuites.contains(suite)) {
                suites.add(suite);
            } else {
                LOG.log(System.Logger.Level.DEBUG, () -> "TLS: cipher suite " + suite + " is not supported by this JDK; left out");
            }
        }
        if (suites.isEmpty()) {
            throw new TlsConfigException("TLS: none of the cipher suites " + config.cipherSuites() + " is supported by this JDK");
        }
        SSLParameters parameters = sslContext.getDefaultSSLParameters();
        parameters.setProtocols(config.protocols().toArray(String[]::new));
        parameters.setCipherSuites(suites.toArray(String[]::new));
        parameters.setNamedGroups(setup.namedGroups().toArray(String[]::new));
        // the server's order, not the client's: ours puts the strongest suites first
        parameters.setUseCipherSuitesOrder(true);
        parameters.setApplicationProtocols(config.applicationProtocols().toArray(String[]::new));
        // no matcher: an unknown name gets the default certificate (see SniKeyManager), not an alert
        parameters.setSNIMatchers(List.of());
        switch (config.clientAuth()) {
            case REQUIRED -> parameters.setNeedClientAuth(true);
            case OPTIONAL -> parameters.setWantClientAuth(true);
            case NONE -> parameters.setWantClientAuth(false); // clears both
        }
        return parameters;
    }

    /** The JSSE context; engines made from it directly need {@link #parameters()} applied. */
    public SSLContext sslContext() {
        return sslContext;
    }

    /**
     * A fresh copy of the server parameters: protocols, cipher suites in server order, ALPN, no
     * SNI matcher, client authentication as configured.
     */
    public SSLParameters parameters() {
        return copy(parameters);
    }

    @Override
    public SSLEngine newEngine(String peerHost, int peerPort) {
        SSLEngine engine = peerHost == null ? sslContext.createSSLEngine() : sslContext.createSSLEngine(peerHost, peerPort);
        engine.setUseClientMode(false);
        engine.setSSLParameters(parameters());
        return engine;
    }

    @Override
    public String description() {
        return "JSSE (JDK " + Runtime.version() + ")";
    }

    /** SSLParameters is mutable; each engine gets its own copy so none can change another's. */
    static SSLParameters copy(SSLParameters source) {
        SSLParameters copy = new SSLParameters(source.getCipherSuites(), source.getProtocols());
        copy.setUseCipherSuitesOrder(source.getUseCipherSuitesOrder());
        copy.setApplicationProtocols(source.getApplicationProtocols());
        copy.setSNIMatchers(source.getSNIMatchers());
        // each setter clears the other, so the one that is set goes last
        if (source.getNeedClientAuth()) {
            copy.setNeedClientAuth(true);
        } else {
            copy.setWantClientAuth(source.getWantClientAuth());
        }
        copy.setEndpointIdentificationAlgorithm(source.getEndpointIdentificationAlgorithm());
        copy.setAlgorithmConstraints(source.getAlgorithmConstraints());
        copy.setEnableRetransmissions(source.getEnableRetransmissions());
        copy.setMaximumPacketSize(source.getMaximumPacketSize());
        if (source.getNamedGroups() != null) copy.setNamedGroups(source.getNamedGroups());
        if (source.getSignatureSchemes() != null) copy.setSignatureSchemes(source.getSignatureSchemes());
        return copy;
    }
}
