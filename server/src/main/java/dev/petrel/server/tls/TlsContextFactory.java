package dev.petrel.server.tls;

import dev.petrel.server.TlsEngineProvider;
import dev.petrel.server.config.CertificateSource;
import dev.petrel.server.config.SniHost;
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
 * engine. Each {@link SniHost} gets engines of its own, and each connection the engine of the
 * host its client names ({@link SniRoutingEngines}).
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
        List<ServerCertificate> certificates = load(config, now);
        List<TlsEngineProvider.Staple> staples = config.ocspResponse() == null ? List.of()
                : List.of(new TlsEngineProvider.Staple(certificates.getFirst().chain().getFirst(), OcspResponseFile.read(config.ocspResponse())));
        TlsEngineProvider.Engines defaults = engines(provider, config, certificates, staples);
        if (config.hosts().isEmpty()) return new TlsContext(config, defaults, certificates);
        List<ServerCertificate> all = new ArrayList<>(certificates);
        List<SniRoutingEngines.Host> hosts = new ArrayList<>();
        try {
            for (SniHost host : config.hosts()) {
                TlsConfig hostConfig = config.forHost(host);
                List<ServerCertificate> hostCertificates = load(hostConfig, now);
                hosts.add(new SniRoutingEngines.Host(host, engines(provider, hostConfig, hostCertificates, List.of())));
                all.addAll(hostCertificates);
            }
        } catch (TlsConfigException | RuntimeException e) {
            defaults.close(); // an engine's native context is freed now, not when the JVM exits
            for (SniRoutingEngines.Host made : hosts) made.engines().close();
            throw e;
        }
        return new TlsContext(config, new SniRoutingEngines(defaults, hosts), all);
    }

    private static List<ServerCertificate> load(TlsConfig config, Instant now) throws TlsConfigException {
        List<ServerCertificate> certificates = new ArrayList<>();
        for (CertificateSource source : config.certificates()) certificates.addAll(CertificateLoader.load(source, now));
        return certificates;
    }

    /** The provider's engines over {@code certificates}, asking clients for certificates as {@code config} says. */
    private static TlsEngineProvider.Engines engines(TlsEngineProvider provider, TlsConfig config, List<ServerCertificate> certificates,
                                                     List<TlsEngineProvider.Staple> staples) throws TlsConfigException {
        // trust managers only to check client certificates, when they are asked for
        X509TrustManager trust = config.clientAuth() == TlsConfig.ClientAuth.NONE ? null
                : x509(ClientCertificateTrust.managers(config.trustedCertificates()));
        TlsEngineProvider.Setup setup = new TlsEngineProvider.Setup(config, new SniKeyManager(certificates), trust,
                TlsConfig.NAMED_GROUPS, staples);
        return CountedEngines.of(provider.engines(setup));
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
