package dev.petrel.server.tls;

import dev.petrel.server.TlsEngineProvider;
import dev.petrel.server.config.CertificateSource;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Builds a {@link TlsContext} from a {@link TlsConfig}: reads every certificate source, checks
 * each certificate (readable, PEM or PKCS#12, key matching, within its dates), then has the
 * configured engine ({@link TlsEngines}) prepare server engines over a key manager that picks the
 * certificate by SNI ({@link SniKeyManager}). The files and their checks are the same whatever the
 * engine.
 */
public final class TlsContextFactory {
    private TlsContextFactory() {}

    /**
     * Loads and checks everything {@code config} names.
     *
     * @throws TlsConfigException with one line naming the file and the problem, the setting the
     *         engine does not support, or the engine that is missing or cannot load
     */
    public static TlsContext create(TlsConfig config) throws TlsConfigException {
        checkProtocols(config.protocols());
        TlsEngineProvider provider = TlsEngines.provider(config.engine());
        Instant now = Instant.now();
        List<ServerCertificate> certificates = new ArrayList<>();
        for (CertificateSource source : config.certificates()) certificates.addAll(CertificateLoader.load(source, now));
        // trust managers only to check client certificates, when they are asked for
        X509TrustManager trust = config.clientAuth() == TlsConfig.ClientAuth.NONE ? null
                : x509(ClientCertificateTrust.managers(config.trustedCertificates()));
        List<TlsEngineProvider.Staple> staples = config.ocspResponse() == null ? List.of()
                : List.of(new TlsEngineProvider.Staple(certificates.getFirst().chain().getFirst(), OcspResponseFile.read(config.ocspResponse())));
        TlsEngineProvider.Setup setup = new TlsEngineProvider.Setup(config, new SniKeyManager(certificates), trust,
                TlsConfig.NAMED_GROUPS, staples);
        return new TlsContext(config, provider.engines(setup), certificates);
    }

    /** Only {@link TlsConfig#SUPPORTED_PROTOCOLS}, whatever an engine would still speak (BoringSSL: TLS 1.1 and 1.0). */
    private static void checkProtocols(List<String> protocols) throws TlsConfigException {
        for (String protocol : protocols) {
            if (!TlsConfig.SUPPORTED_PROTOCOLS.contains(protocol)) {
                throw new TlsConfigException("TLS: protocol " + protocol + " is not one Petrel serves: choose from "
                        + String.join(", ", TlsConfig.SUPPORTED_PROTOCOLS) + " (TLS 1.1 and older are deprecated, RFC 8996)");
            }
        }
    }

    private static X509TrustManager x509(TrustManager[] managers) throws TlsConfigException {
        for (TrustManager manager : managers) if (manager instanceof X509TrustManager x509) return x509;
        throw new TlsConfigException("TLS: the JDK offers no X.509 trust manager to check client certificates");
    }
}
