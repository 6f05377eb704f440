package dev.petrel.server.tls;

import dev.petrel.server.CertificateSource;
import dev.petrel.server.TlsConfig;
import dev.petrel.server.TlsConfigException;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;

/**
 * Builds a {@link TlsContext} from a {@link TlsConfig}: reads every certificate source, checks
 * each certificate (readable, PEM or PKCS#12, key matching, within its dates), then makes a
 * {@code "TLS"} {@link SSLContext} whose key manager picks the certificate by SNI, and the server
 * {@link SSLParameters}.
 */
public final class TlsContextFactory {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.tls");

    private TlsContextFactory() {}

    /**
     * Loads and checks everything {@code config} names.
     *
     * @throws TlsConfigException with one line naming the file and the problem, or the setting
     *         the JDK does not support
     */
    public static TlsContext create(TlsConfig config) throws TlsConfigException {
        Instant now = Instant.now();
        List<ServerCertificate> certificates = new ArrayList<>();
        for (CertificateSource source : config.certificates()) certificates.addAll(CertificateLoader.load(source, now));
        SSLContext sslContext;
        try {
            sslContext = SSLContext.getInstance("TLS");
            // trust managers only to check client certificates, when they are asked for
            TrustManager[] trust = config.clientAuth() == TlsConfig.ClientAuth.NONE ? null
                    : ClientCertificateTrust.managers(config.trustedCertificates());
            sslContext.init(new KeyManager[] {new SniKeyManager(certificates)}, trust, null);
        } catch (GeneralSecurityException e) {
            throw new TlsConfigException("TLS: the JDK cannot make a TLS context (" + e.getMessage() + ")", e);
        }
        return new TlsContext(config, sslContext, parameters(config, sslContext), certificates);
    }

    private static SSLParameters parameters(TlsConfig config, SSLContext sslContext) throws TlsConfigException {
        SSLParameters supported = sslContext.getSupportedSSLParameters();
        Set<String> supportedProtocols = Set.of(supported.getProtocols());
        for (String protocol : config.protocols()) {
            if (!supportedProtocols.contains(protocol)) {
                throw new TlsConfigException("TLS: protocol " + protocol + " is not supported by this JDK (supported: "
                        + String.join(", ", supported.getProtocols()) + ")");
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
        parameters.setNamedGroups(TlsConfig.NAMED_GROUPS.toArray(String[]::new));
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

    /** SSLParameters is mutable; each engine gets its own copy so none can change another's. */
    public static SSLParameters copy(SSLParameters source) {
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
