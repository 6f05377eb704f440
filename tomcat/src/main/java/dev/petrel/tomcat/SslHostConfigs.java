package dev.petrel.tomcat;

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
 * PKCS#12 key stores ({@code certificateKeystoreFile}, {@code certificateKeystorePassword}), for
 * the default host; {@code protocols} as given, less TLS 1.1 and older (with a warning); client certificates
 * ({@code certificateVerification="required|optional"}) checked against {@code caCertificateFile}
 * (PEM) or {@code truststoreFile}/{@code truststorePassword}, else the JDK's trust store, as Tomcat
 * does. Relative paths are resolved against {@code catalina.base}, as Tomcat does. What Petrel does
 * not take (encrypted PEM keys, other host names, {@code optionalNoCA}, revocation lists, OpenSSL
 * cipher strings) is said, never dropped silently: an error when it would change who can connect,
 * a warning otherwise.
 */
final class SslHostConfigs {
    private static final Log LOG = LogFactory.getLog(SslHostConfigs.class);
    private static final String DEFAULT_HOST = "_default_"; // SSLHostConfig's own default, not public there
    private static final String DEFAULT_CIPHERS = new SSLHostConfig().getCiphers();

    private SslHostConfigs() {}

    /**
     * The TLS configuration for {@code configs}, whose default host's certificates Petrel serves,
     * on {@code engine} (null: {@link TlsConfig}'s default).
     */
    static TlsConfig toTlsConfig(List<SSLHostConfig> configs, String connectorName, String engine) {
        SSLHostConfig chosen = null;
        for (SSLHostConfig config : configs) {
            if (DEFAULT_HOST.equals(config.getHostName())) chosen = config;
            else LOG.warn(connectorName + ": <SSLHostConfig hostName=\"" + config.getHostName()
                    + "\"> is ignored: Petrel serves the default host's certificates to every name");
        }
        if (chosen == null) {
            throw new IllegalArgumentException(connectorName + ": SSLEnabled=\"true\" needs an <SSLHostConfig> for the default host");
        }
        if (!DEFAULT_CIPHERS.equals(chosen.getCiphers())) {
            LOG.warn(connectorName + ": ciphers=\"" + chosen.getCiphers() + "\" is ignored: Petrel uses its own TLS 1.3/1.2 suites");
        }
        TlsConfig.Builder tls = TlsConfig.builder();
        List<String> protocols = new ArrayList<>(chosen.getProtocols());
        protocols.removeIf(p -> !p.startsWith("TLSv")); // "SSLv2Hello" and the like
        List<String> deprecated = protocols.stream().filter(p -> !TlsConfig.SUPPORTED_PROTOCOLS.contains(p)).toList();
        if (!deprecated.isEmpty()) {
            // Tomcat's protocols="all" names TLS 1.0 and 1.1 too; Petrel speaks neither (RFC 8996), and says so
            LOG.warn(connectorName + ": protocols " + deprecated + " are not offered: Petrel speaks " + TlsConfig.SUPPORTED_PROTOCOLS
                    + " only (TLS 1.1 and older are deprecated, RFC 8996)");
            protocols.removeAll(deprecated);
            if (protocols.isEmpty()) {
                throw new IllegalArgumentException(connectorName + ": protocols=\"" + String.join("+", chosen.getProtocols())
                        + "\" leaves no protocol Petrel speaks: use TLSv1.2 and TLSv1.3");
            }
        }
        if (!protocols.isEmpty()) tls.protocols(protocols.toArray(String[]::new));
        for (SSLHostConfigCertificate certificate : chosen.getCertificates()) {
            add(tls, certificate, connectorName);
        }
        clientAuth(tls, chosen, connectorName);
        if (engine != null) tls.engine(engine);
        return tls.build();
    }

    /** {@code certificateVerification} and where the certificates it trusts are. */
    private static void clientAuth(TlsConfig.Builder tls, SSLHostConfig config, String connectorName) {
        TlsConfig.ClientAuth mode = switch (config.getCertificateVerification()) {
            case NONE -> TlsConfig.ClientAuth.NONE;
            case OPTIONAL -> TlsConfig.ClientAuth.OPTIONAL;
            case REQUIRED -> TlsConfig.ClientAuth.REQUIRED;
            case OPTIONAL_NO_CA -> throw new IllegalArgumentException(connectorName
                    + ": certificateVerification=\"optionalNoCA\" (accepting certificates nobody trusted) is not supported by Petrel");
        };
        if (mode == TlsConfig.ClientAuth.NONE) return;
        if (config.getCertificateRevocationListFile() != null) {
            throw new IllegalArgumentException(connectorName + ": certificateRevocationListFile is not supported by Petrel yet,"
                    + " and a revoked client certificate must not get in");
        }
        if (config.getCaCertificateFile() != null) {
            tls.clientAuth(mode, new TlsConfig.TrustedCertificates(resolve(config.getCaCertificateFile()), null));
        } else if (config.getTruststoreFile() != null) {
            String password = config.getTruststorePassword();
            tls.clientAuth(mode, new TlsConfig.TrustedCertificates(resolve(config.getTruststoreFile()),
                    password == null ? null : password.toCharArray()));
        } else {
            tls.clientAuth(mode); // the JDK's trust store, as Tomcat falls back to it
        }
    }

    private static void add(TlsConfig.Builder tls, SSLHostConfigCertificate certificate, String connectorName) {
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
            tls.pem(chain, key);
        } else if (certificate.getCertificateKeystoreFile() != null) {
            String password = certificate.getCertificateKeystorePassword();
            tls.pkcs12(resolve(certificate.getCertificateKeystoreFile()), (password == null ? "changeit" : password).toCharArray());
        } else {
            throw new IllegalArgumentException(connectorName + ": a <Certificate> needs certificateFile or certificateKeystoreFile");
        }
    }

    private static Path resolve(String file) {
        Path path = Path.of(file);
        String base = System.getProperty("catalina.base");
        return path.isAbsolute() || base == null ? path : Path.of(base).resolve(path);
    }
}
