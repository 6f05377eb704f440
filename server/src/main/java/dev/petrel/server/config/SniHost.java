package dev.petrel.server.config;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * A host name served with TLS settings of its own: connections whose client names it by SNI get
 * its certificates and its client authentication, whatever certificates the listener's default
 * has and whatever names those certificates carry. Added with {@link TlsConfig.Builder#host}; a
 * client that names no such host (or no host at all) gets the listener's default settings.
 *
 * <p>This is what web servers call a virtual host's TLS block (Tomcat's
 * {@code <SSLHostConfig hostName=...>}, nginx's {@code server_name} with {@code ssl_certificate}
 * and {@code ssl_verify_client}). The name is read from the client's hello before any TLS engine
 * sees it, so that each host's client authentication is that host's alone: one host may require
 * client certificates while another on the same port asks for none. Protocols, cipher suites,
 * ALPN, the handshake timeout and the engine are the listener's, shared by every host.
 *
 * @param hostName the name, lower case: exact ({@code api.example.com}) or a wildcard covering
 *     one left-most label ({@code *.example.com}); an exact name wins over a wildcard that covers it
 * @param certificates the certificates served to it, at least one; the first is its default when
 *     it has several (chosen among them by key type and by name, as for the listener)
 * @param clientAuth whether clients of this host are asked for a certificate
 * @param trustedCertificates what their certificates must chain to, or {@code null} for the JDK's
 *     trust store
 */
public record SniHost(String hostName, List<CertificateSource> certificates, TlsConfig.ClientAuth clientAuth,
                      TlsConfig.TrustedCertificates trustedCertificates) {

    /** Checks the name and certificates and normalizes the name (lower case, no trailing dot). */
    public SniHost {
        Objects.requireNonNull(hostName, "hostName");
        hostName = normalize(hostName);
        certificates = List.copyOf(certificates);
        if (certificates.isEmpty()) throw new IllegalArgumentException("host " + hostName + " needs at least one certificate");
        Objects.requireNonNull(clientAuth, "clientAuth");
    }

    /**
     * A host with {@code certificates} and no client authentication.
     *
     * @param hostName exact or {@code *.}-wildcard name
     * @param certificates at least one
     */
    public static SniHost of(String hostName, CertificateSource... certificates) {
        return new SniHost(hostName, List.of(certificates), TlsConfig.ClientAuth.NONE, null);
    }

    /**
     * This host asking its clients for a certificate checked against the JDK's trust store.
     *
     * @param mode whether a client may go without one
     */
    public SniHost withClientAuth(TlsConfig.ClientAuth mode) {
        return new SniHost(hostName, certificates, mode, null);
    }

    /**
     * This host asking its clients for a certificate that chains to one in {@code trusted}.
     *
     * @param mode whether a client may go without one
     * @param trusted PEM certificates, or a PKCS#12 or JKS trust store
     */
    public SniHost withClientAuth(TlsConfig.ClientAuth mode, TlsConfig.TrustedCertificates trusted) {
        return new SniHost(hostName, certificates, mode, Objects.requireNonNull(trusted, "trusted"));
    }

    /** True when this host's name covers {@code serverName} (lower case); {@code exact} leaves the wildcard out. */
    public boolean covers(String serverName, boolean exact) {
        if (!hostName.startsWith("*.")) return hostName.equals(serverName);
        if (exact) return false;
        int firstDot = serverName.indexOf('.');
        return firstDot > 0 && serverName.substring(firstDot).equals(hostName.substring(1));
    }

    /** Every file its certificates and trusted certificates are read from, once each. */
    public List<Path> files() {
        Set<Path> files = new LinkedHashSet<>();
        for (CertificateSource source : certificates) files.addAll(source.files());
        if (trustedCertificates != null) files.add(trustedCertificates.file());
        return List.copyOf(files);
    }

    private static String normalize(String name) {
        String lower = name.strip().toLowerCase(Locale.ROOT);
        if (lower.endsWith(".")) lower = lower.substring(0, lower.length() - 1);
        if (lower.isEmpty() || lower.indexOf('*', 1) >= 0 || (lower.startsWith("*") && !lower.startsWith("*."))) {
            throw new IllegalArgumentException("host name '" + name + "': give a name, or *. and a domain");
        }
        return lower;
    }

    /** Names the host and its client authentication, never a password. */
    @Override
    public String toString() {
        return "SniHost[" + hostName + ", certificates=" + certificates + ", clientAuth=" + clientAuth
                + (trustedCertificates == null ? "" : " trusting " + trustedCertificates.file()) + "]";
    }
}
