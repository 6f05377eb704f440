package dev.petrel.tomcat;

import dev.petrel.server.config.CertificateSource;
import dev.petrel.server.config.SniHost;
import dev.petrel.server.config.TlsConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;

/**
 * Tomcat's {@code <SSLHostConfig>}/{@code <Certificate>} elements as Petrel's {@link TlsConfig}:
 * PEM files ({@code certificateFile}, {@code certificateKeyFile}, {@code certificateChainFile}) and
 * PKCS#12 key stores ({@code certificateKeystoreFile}, {@code certificateKeystorePassword});
 * {@code protocols} as given, less TLS 1.1 and older (with a warning); client certificates
 * ({@code certificateVerification="required|optional"}) checked against {@code caCertificateFile}
 * (PEM) or {@code truststoreFile}/{@code truststorePassword}, else the JDK's trust store, as Tomcat
 * does. The default host's element (the connector's {@code defaultSSLHostConfigName}) is the
 * listener's default; every other becomes a {@link SniHost}, whose certificates and client
 * authentication a client naming it by SNI gets, as on Tomcat. Relative paths are resolved
 * against {@code catalina.base}, as Tomcat does. What Petrel does not take (encrypted PEM keys,
 * {@code optionalNoCA}, revocation lists, OpenSSL cipher strings, protocols per host) is said,
 * never dropped silently: an error when it would change who can connect, a warning otherwise.
 */
final class SslHostConfigs {
    private static final Log LOG = LogFactory.getLog(SslHostConfigs.class);
    /** The default host's name when the connector names none: SSLHostConfig's own, not public there. */
    static final String DEFAULT_HOST = "_default_";
    private static final String DEFAULT_CIPHERS = new SSLHostConfig().getCiphers();

    private SslHostConfigs() {}

    /**
     * The TLS configuration for {@code configs} on {@code engine} (null: {@link TlsConfig}'s
     * default): the one named {@code defaultHost} is the default, the others hosts chosen by SNI.
     */
    static TlsConfig toTlsConfig(List<SSLHostConfig> configs, String defaultHost, String connectorName, String engine) {
        SSLHostConfig chosen = null;
        for (SSLHostConfig config : configs) {
            if (config.getHostName().equalsIgnoreCase(defaultHost)) chosen = config;
        }
        if (chosen == null) {
            throw new IllegalArgumentException(connectorName + ": SSLEnabled=\"true\" needs an <SSLHostConfig> for the default host ("
                    + defaultHost + ")");
        }
        if (!DEFAULT_CIPHERS.equals(chosen.getCiphers())) {
            LOG.warn(connectorName + ": ciphers=\"" + chosen.getCiphers() + "\" is ignored: Petrel uses its own TLS 1.3/1.2 suites");
        }
        TlsConfig.Builder tls = TlsConfig.builder();
        List<String> protocols = protocols(chosen, connectorName);
        if (!protocols.isEmpty()) tls.protocols(protocols.toArray(String[]::new));
        for (CertificateSource certificate : certificates(chosen, connectorName)) tls.certificate(certificate);
        ClientCertificates clients = ClientCertificates.of(chosen, connectorName);
        if (clients.trusted() != null) tls.clientAuth(clients.mode(), clients.trusted());
        else tls.clientAuth(clients.mode());
        for (SSLHostConfig config : configs) {
            if (config != chosen) tls.host(host(config, chosen, connectorName));
        }
        if (engine != null) tls.engine(engine);
        return tls.build();
    }

    /** Another host: its certificates and client authentication; the default's protocols and ciphers, said when they differ. */
    private static SniHost host(SSLHostConfig config, SSLHostConfig defaults, String connectorName) {
        String element = connectorName + ": <SSLHostConfig hostName=\"" + config.getHostName() + "\">";
        if (!config.getProtocols().equals(defaults.getProtocols()) || !config.getCiphers().equals(defaults.getCiphers())) {
            LOG.warn(element + ": its protocols and ciphers are ignored: Petrel offers the default host's to every host");
        }
        ClientCertificates clients = ClientCertificates.of(config, connectorName);
        return new SniHost(config.getHostName(), certificates(config, connectorName), clients.mode(), clients.trusted());
    }

    private static List<String> protocols(SSLHostConfig config, String connectorName) {
        List<String> protocols = new ArrayList<>(config.getProtocols());
        protocols.removeIf(p -> !p.startsWith("TLSv")); // "SSLv2Hello" and the like
        List<String> deprecated = protocols.stream().filter(p -> !TlsConfig.SUPPORTED_PROTOCOLS.contains(p)).toList();
        if (!deprecated.isEmpty()) {
            // Tomcat's protocols="all" names TLS 1.0 and 1.1 too; Petrel speaks neither (RFC 8996), and says so
            LOG.warn(connectorName + ": protocols " + deprecated + " are not offered: Petrel speaks " + TlsConfig.SUPPORTED_PROTOCOLS
                    + " only (TLS 1.1 and older are deprecated, RFC 8996)");
            protocols.removeAll(deprecated);
            if (protocols.isEmpty()) {
                throw new IllegalArgumentException(connectorName + ": protocols=\"" + String.join("+", config.getProtocols())
                        + "\" leaves no protocol Petrel speaks: use TLSv1.2 and TLSv1.3");
            }
        }
        return protocols;
    }

    /**
     * {@code certificateVerification} and where the certificates it trusts are.
     *
     * @param trusted null: the JDK's trust store, as Tomcat falls back to it
     */
    private record ClientCertificates(TlsConfig.ClientAuth mode, TlsConfig.TrustedCertificates trusted) {
        static ClientCertificates of(SSLHostConfig config, String connectorName) {
            TlsConfig.ClientAuth mode = switch (config.getCertificateVerification()) {
                case NONE -> TlsConfig.ClientAuth.NONE;
                case OPTIONAL -> TlsConfig.ClientAuth.OPTIONAL;
                case REQUIRED -> TlsConfig.ClientAuth.REQUIRED;
                case OPTIONAL_NO_CA -> throw new IllegalArgumentException(connectorName
                        + ": certificateVerification=\"optionalNoCA\" (accepting certificates nobody trusted) is not supported by Petrel");
            };
            if (mode == TlsConfig.ClientAuth.NONE) return new ClientCertificates(mode, null);
            if (config.getCertificateRevocationListFile() != null) {
                throw new IllegalArgumentException(connectorName + ": certificateRevocationListFile is not supported by Petrel yet,"
                        + " and a revoked client certificate must not get in");
            }
            if (config.getCaCertificateFile() != null) {
                return new ClientCertificates(mode, new TlsConfig.TrustedCertificates(resolve(config.getCaCertificateFile()), null));
            }
            if (config.getTruststoreFile() != null) {
                String password = config.getTruststorePassword();
                return new ClientCertificates(mode, new TlsConfig.TrustedCertificates(resolve(config.getTruststoreFile()),
                        password == null ? null : password.toCharArray()));
            }
            return new ClientCertificates(mode, null);
        }
    }

    private static List<CertificateSource> certificates(SSLHostConfig config, String connectorName) {
        List<CertificateSource> sources = new ArrayList<>();
        for (SSLHostConfigCertificate certificate : config.getCertificates()) sources.add(source(certificate, connectorName));
        if (sources.isEmpty()) {
            throw new IllegalArgumentException(connectorName + ": <SSLHostConfig hostName=\"" + config.getHostName() + "\"> has no <Certificate>");
        }
        return sources;
    }

    private static CertificateSource source(SSLHostConfigCertificate certificate, String connectorName) {
        if (certificate.getCertificateFile() != null) {
            if (certificate.getCertificateKeyPassword() != null) {
                throw new IllegalArgumentException(connectorName + ": certificateKeyPassword is set, and Petrel reads"
                        + " unencrypted PEM keys only (openssl pkey -in key.pem -out plain-key.pem)");
            }
            if (certificate.getCertificateChainFile() != null) {
                LOG.warn(connectorName + ": certificateChainFile is ignored: put the chain after the certificate in certificateFile");
            }
            Path chain = resolve(certificate.getCertificateFile());
            Path key = certificate.getCertificateKeyFile() == null ? chain : resolve(certificate.getCertificateKeyFile());
            return new CertificateSource.Pem(chain, key);
        }
        if (certificate.getCertificateKeystoreFile() != null) {
            String password = certificate.getCertificateKeystorePassword();
            return new CertificateSource.Pkcs12(resolve(certificate.getCertificateKeystoreFile()),
                    (password == null ? "changeit" : password).toCharArray());
        }
        throw new IllegalArgumentException(connectorName + ": a <Certificate> needs certificateFile or certificateKeystoreFile");
    }

    private static Path resolve(String file) {
        Path path = Path.of(file);
        String base = System.getProperty("catalina.base");
        return path.isAbsolute() || base == null ? path : Path.of(base).resolve(path);
    }
}
