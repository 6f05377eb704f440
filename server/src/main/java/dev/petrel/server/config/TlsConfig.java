package dev.petrel.server.config;

import dev.petrel.server.TlsDetails;
import dev.petrel.server.TlsEngineProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What an HTTPS listener serves: its certificates and the TLS settings offered to clients.
 * Immutable; build one with {@link #builder()} or the {@link #pem} and {@link #pkcs12} shortcuts.
 * Nothing is read here: files are read and checked when the server builds
 * the context, so a configuration can be made before the files exist.
 *
 * <table>
 *   <caption>Settings and defaults</caption>
 *   <tr><th>Setting</th><th>Default</th><th>Why</th></tr>
 *   <tr><td>{@code certificates}</td><td>(required)</td><td>the first is the default, served to clients that send no
 *       server name or one no certificate covers; the others are chosen by SNI</td></tr>
 *   <tr><td>{@code protocols}</td><td>TLSv1.3, TLSv1.2</td><td>1.0 and 1.1 are deprecated (RFC 8996)</td></tr>
 *   <tr><td>{@code cipherSuites}</td><td>{@link #DEFAULT_CIPHER_SUITES}</td><td>forward secret AEAD suites only,
 *       in the server's order of preference; those the JDK lacks are left out</td></tr>
 *   <tr><td>{@code applicationProtocols}</td><td>{@code http/1.1}</td><td>ALPN; {@code h2} goes first once served</td></tr>
 *   <tr><td>{@code handshakeTimeout}</td><td>10 s</td><td>a client that does not finish its handshake in time is cut,
 *       so a silent or slow one cannot hold a connection</td></tr>
 *   <tr><td>{@code engine}</td><td>{@value #JSSE}, or the {@code petrel.tls.engine} system property</td><td>the JDK's
 *       own TLS needs nothing more; {@value #NATIVE} (BoringSSL, module {@code petrel-tls-native}) does a full
 *       handshake in a fraction of JSSE's CPU time</td></tr>
 *   <tr><td>{@code ocspResponse}</td><td>none</td><td>a DER OCSP response for the default certificate, stapled to
 *       the handshakes that serve it (the native engine), and re-read when the file changes, so a job that
 *       refreshes it (e.g. {@code openssl ocsp ... -respout}) keeps it current, as nginx's {@code ssl_stapling_file}</td></tr>
 *   <tr><td>{@code clientAuth}</td><td>{@link ClientAuth#NONE}</td><td>client certificates are for the few services
 *       that authenticate clients by them; asked for, they are checked against {@code trustedCertificates}
 *       (the JDK's trust store when none is given) and handed to the handler in {@link TlsDetails}</td></tr>
 *   <tr><td>{@code hosts}</td><td>none</td><td>{@link SniHost}s: a client naming one by SNI gets that host's
 *       certificates and client authentication instead of the settings above; protocols, suites, ALPN,
 *       the timeout and the engine stay the listener's</td></tr>
 * </table>
 */
public final class TlsConfig {
    /** TLS 1.3 and 1.2, newest first. */
    public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    /**
     * The only versions a server may be given, TLS 1.3 and 1.2: older ones are deprecated (RFC 8996),
     * and the JDK, which still knows SSLv3 to TLSv1.1, disables them, so that a server given only
     * those would start and then fail every handshake. The server refuses any other at start.
     */
    public static final List<String> SUPPORTED_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    /**
     * The TLS 1.3 suites, then for TLS 1.2 ECDHE (forward secrecy) with AES-GCM or ChaCha20-Poly1305,
     * ECDSA before RSA: Mozilla's "intermediate" list, which every client since 2014 can use.
     */
    public static final List<String> DEFAULT_CIPHER_SUITES = List.of(
            "TLS_AES_128_GCM_SHA256",
            "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

    /**
     * The key exchange groups offered, in the server's order: X25519, then the NIST curves P-256 and
     * P-384, as Mozilla's "intermediate" profile has them. The JDK would also offer X448, P-521 and
     * finite-field groups, which that profile rejects and no mainstream client needs.
     */
    public static final List<String> NAMED_GROUPS = List.of("x25519", "secp256r1", "secp384r1");

    /** HTTP/1.1 only, until h2 is served. */
    public static final List<String> DEFAULT_APPLICATION_PROTOCOLS = List.of("http/1.1");

    /** The JDK's own TLS (JSSE): always there. */
    public static final String JSSE = "jsse";

    /**
     * BoringSSL through netty-tcnative, from the optional module {@code petrel-tls-native}: a full
     * handshake costs a fraction of JSSE's CPU time.
     */
    public static final String NATIVE = "native";

    /**
     * The system property naming the engine of every configuration that names none: a whole
     * application, or a test suite, moves to the other engine without a change of code.
     */
    public static final String ENGINE_PROPERTY = "petrel.tls.engine";

    /** Ten seconds. */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

    /** Whether the server asks clients for a certificate (mutual TLS). */
    public enum ClientAuth {
        /** Asks for none. */
        NONE,
        /** Asks; a client may send none, and one it sends must be trusted. */
        OPTIONAL,
        /** Asks, and refuses the handshake of a client without a trusted certificate. */
        REQUIRED
    }

    /**
     * Where the certificates that client certificates must chain to are read from.
     *
     * @param file PEM certificates, or a PKCS#12 or JKS trust store
     * @param password the store's password, or {@code null} for PEM or a store read without one
     */
    public record TrustedCertificates(Path file, char[] password) {
        public TrustedCertificates {
            Objects.requireNonNull(file, "file");
            password = password == null ? null : password.clone();
        }
    }

    private final List<CertificateSource> certificates;
    private final List<String> protocols;
    private final List<String> cipherSuites;
    private final List<String> applicationProtocols;
    private final Duration handshakeTimeout;
    private final ClientAuth clientAuth;
    private final TrustedCertificates trustedCertificates;
    private final String engine;
    private final Path ocspResponse;
    private final List<SniHost> hosts;

    private TlsConfig(Builder builder) {
        this.certificates = List.copyOf(builder.certificates);
        this.protocols = builder.protocols;
        this.cipherSuites = builder.cipherSuites;
        this.applicationProtocols = builder.applicationProtocols;
        this.handshakeTimeout = builder.handshakeTimeout;
        this.clientAuth = builder.clientAuth;
        this.trustedCertificates = builder.trustedCertificates;
        this.engine = builder.engine != null ? builder.engine : defaultEngine();
        this.ocspResponse = builder.ocspResponse;
        this.hosts = List.copyOf(builder.hosts);
    }

    /**
     * The engine of a configuration that names none: the {@value #ENGINE_PROPERTY} system property
     * when set (and not blank), else {@value #JSSE}.
     */
    public static String defaultEngine() {
        String named = System.getProperty(ENGINE_PROPERTY);
        return named == null || named.isBlank() ? JSSE : named.strip();
    }

    /** A builder with the defaults and no certificate yet. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * One PEM certificate chain and key, other settings at their defaults.
     *
     * @param certificateChain the chain file, server certificate first
     * @param privateKey the key file
     */
    public static TlsConfig pem(Path certificateChain, Path privateKey) {
        return builder().pem(certificateChain, privateKey).build();
    }

    /**
     * One PKCS#12 store, other settings at their defaults.
     *
     * @param file the store
     * @param password its password, possibly empty
     */
    public static TlsConfig pkcs12(Path file, char[] password) {
        return builder().pkcs12(file, password).build();
    }

    /** A builder holding these settings, to add a certificate or change a setting. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.certificates.addAll(certificates);
        builder.protocols = protocols;
        builder.cipherSuites = cipherSuites;
        builder.applicationProtocols = applicationProtocols;
        builder.handshakeTimeout = handshakeTimeout;
        builder.clientAuth = clientAuth;
        builder.trustedCertificates = trustedCertificates;
        builder.engine = engine;
        builder.ocspResponse = ocspResponse;
        builder.hosts.addAll(hosts);
        return builder;
    }

    /**
     * What a client naming {@code host} gets: this configuration's protocols, cipher suites, ALPN,
     * handshake timeout and engine, with the host's certificates and client authentication, no
     * OCSP response (that is for the default certificate) and no hosts of its own.
     *
     * @param host one of {@link #hosts()}
     */
    public TlsConfig forHost(SniHost host) {
        Builder builder = toBuilder();
        builder.certificates.clear();
        builder.certificates.addAll(host.certificates());
        builder.clientAuth = host.clientAuth();
        builder.trustedCertificates = host.trustedCertificates();
        builder.ocspResponse = null;
        builder.hosts.clear();
        return builder.build();
    }

    /** The certificate sources; the first is the default certificate. */
    public List<CertificateSource> certificates() {
        return certificates;
    }

    /** Protocols enabled, e.g. {@code TLSv1.3}. */
    public List<String> protocols() {
        return protocols;
    }

    /** Cipher suites wanted, in preference order, before those the JDK lacks are left out. */
    public List<String> cipherSuites() {
        return cipherSuites;
    }

    /** ALPN protocol names offered, in preference order. */
    public List<String> applicationProtocols() {
        return applicationProtocols;
    }

    /** Time allowed for a handshake; the transport enforces it. */
    public Duration handshakeTimeout() {
        return handshakeTimeout;
    }

    /** Whether clients are asked for a certificate. */
    public ClientAuth clientAuth() {
        return clientAuth;
    }

    /** What client certificates must chain to, or {@code null} for the JDK's trust store. */
    public TrustedCertificates trustedCertificates() {
        return trustedCertificates;
    }

    /**
     * The TLS engine's name: {@value #JSSE}, {@value #NATIVE}, or another
     * {@link TlsEngineProvider} on the class path answers to. Checked when the server starts: an
     * engine that is not there, or cannot load its library, stops the start with one line saying
     * so, never falling back to another silently.
     */
    public String engine() {
        return engine;
    }

    /** The DER OCSP response stapled for the default certificate, or {@code null} for none. */
    public Path ocspResponse() {
        return ocspResponse;
    }

    /** The hosts with settings of their own, chosen by SNI; empty when every client gets the settings above. */
    public List<SniHost> hosts() {
        return hosts;
    }

    /** Every file read by the certificate sources, the trusted certificates and the hosts, once each, in order. */
    public List<Path> files() {
        Set<Path> files = new LinkedHashSet<>();
        for (CertificateSource source : certificates) files.addAll(source.files());
        if (trustedCertificates != null) files.add(trustedCertificates.file());
        if (ocspResponse != null) files.add(ocspResponse);
        for (SniHost host : hosts) files.addAll(host.files());
        return List.copyOf(files);
    }

    @Override
    public String toString() {
        return "TlsConfig[certificates=" + certificates + ", protocols=" + protocols + ", applicationProtocols="
                + applicationProtocols + ", handshakeTimeout=" + handshakeTimeout + ", clientAuth=" + clientAuth
                + (trustedCertificates == null ? "" : " trusting " + trustedCertificates.file()) + ", engine=" + engine + (ocspResponse == null ? "" : ", stapling " + ocspResponse)
                + (hosts.isEmpty() ? "" : ", hosts=" + hosts) + "]";
    }

    /** Collects certificates and settings; {@link #build()} checks them. */
    public static final class Builder {
        private final List<CertificateSource> certificates = new ArrayList<>();
        private List<String> protocols = DEFAULT_PROTOCOLS;
        private List<String> cipherSuites = DEFAULT_CIPHER_SUITES;
        private List<String> applicationProtocols = DEFAULT_APPLICATION_PROTOCOLS;
        private Duration handshakeTimeout = DEFAULT_HANDSHAKE_TIMEOUT;
        private ClientAuth clientAuth = ClientAuth.NONE;
        private TrustedCertificates trustedCertificates;
        private String engine; // null: the default, decided by build()
        private Path ocspResponse;
        private final List<SniHost> hosts = new ArrayList<>();

        private Builder() {}

        /**
         * Serves {@code host} with its own certificates and client authentication to the clients
         * that name it by SNI.
         *
         * @param host a name not added before
         * @throws IllegalArgumentException when a host of that name was added already
         */
        public Builder host(SniHost host) {
            Objects.requireNonNull(host, "host");
            for (SniHost added : hosts) {
                if (added.hostName().equals(host.hostName())) {
                    throw new IllegalArgumentException("host " + host.hostName() + " is configured twice");
                }
            }
            hosts.add(host);
            return this;
        }

        /**
         * Staples an OCSP response to the handshakes that serve the default (first) certificate, so
         * that clients need not ask the certificate authority whether it was revoked. The file is
         * read at start and at each reload (it is watched with the certificates); it must be the
         * DER response for that certificate, as {@code openssl ocsp -respout} writes it. Served by
         * the native engine; the JDK's engine fetches responses itself instead (when started with
         * {@code -Djdk.tls.server.enableStatusRequestExtension=true}) and refuses this setting.
         *
         * @param derFile the response file
         */
        public Builder ocspResponse(Path derFile) {
            this.ocspResponse = Objects.requireNonNull(derFile, "derFile");
            return this;
        }

        /**
         * Chooses the TLS engine.
         *
         * @param name {@value #JSSE}, {@value #NATIVE} (needs {@code petrel-tls-native} on the class
         *     path), or the name of another {@link TlsEngineProvider}
         */
        public Builder engine(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) throw new IllegalArgumentException("engine must not be blank");
            this.engine = name.strip();
            return this;
        }

        /**
         * Asks clients for a certificate, checked against the JDK's trust store.
         *
         * @param mode whether a client may go without one
         */
        public Builder clientAuth(ClientAuth mode) {
            this.clientAuth = Objects.requireNonNull(mode, "mode");
            this.trustedCertificates = null;
            return this;
        }

        /**
         * Asks clients for a certificate that chains to one in {@code trusted}.
         *
         * @param mode whether a client may go without one
         * @param trusted PEM certificates, or a PKCS#12 or JKS trust store
         */
        public Builder clientAuth(ClientAuth mode, TrustedCertificates trusted) {
            this.clientAuth = Objects.requireNonNull(mode, "mode");
            this.trustedCertificates = Objects.requireNonNull(trusted, "trusted");
            return this;
        }

        /**
         * Adds a certificate source; the first added is the default certificate.
         *
         * @param source PEM files or a PKCS#12 store
         */
        public Builder certificate(CertificateSource source) {
            certificates.add(Objects.requireNonNull(source, "source"));
            return this;
        }

        /**
         * Adds a PEM certificate chain and key.
         *
         * @param certificateChain the chain file, server certificate first
         * @param privateKey the key file, possibly the same file
         */
        public Builder pem(Path certificateChain, Path privateKey) {
            return certificate(new CertificateSource.Pem(certificateChain, privateKey));
        }

        /**
         * Adds a PKCS#12 store.
         *
         * @param file the store
         * @param password its password, possibly empty
         */
        public Builder pkcs12(Path file, char[] password) {
            return certificate(new CertificateSource.Pkcs12(file, password));
        }

        /**
         * Replaces the enabled protocols.
         *
         * @param protocols JSSE names of {@link #SUPPORTED_PROTOCOLS}, such as {@code TLSv1.3}; others
         *        are refused when the server starts
         */
        public Builder protocols(String... protocols) {
            this.protocols = nonEmpty(protocols, "protocols");
            return this;
        }

        /**
         * Replaces the cipher suites, in preference order.
         *
         * @param cipherSuites IANA names as JSSE spells them
         */
        public Builder cipherSuites(String... cipherSuites) {
            this.cipherSuites = nonEmpty(cipherSuites, "cipherSuites");
            return this;
        }

        /**
         * Replaces the ALPN protocols, in preference order.
         *
         * @param applicationProtocols e.g. {@code h2}, {@code http/1.1}
         */
        public Builder applicationProtocols(String... applicationProtocols) {
            this.applicationProtocols = nonEmpty(applicationProtocols, "applicationProtocols");
            return this;
        }

        /**
         * Replaces the handshake timeout.
         *
         * @param timeout positive
         */
        public Builder handshakeTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("handshakeTimeout must be positive");
            this.handshakeTimeout = timeout;
            return this;
        }

        /**
         * The configuration.
         *
         * @throws IllegalStateException when no certificate was added
         */
        public TlsConfig build() {
            if (certificates.isEmpty()) throw new IllegalStateException("a TLS configuration needs at least one certificate");
            return new TlsConfig(this);
        }

        private static List<String> nonEmpty(String[] values, String name) {
            List<String> list = List.of(values); // rejects nulls
            if (list.isEmpty()) throw new IllegalArgumentException(name + " must not be empty");
            for (String value : list) {
                if (value.isBlank()) throw new IllegalArgumentException(name + " must not contain a blank name");
            }
            return list;
        }
    }
}
