package dev.petrel.server;

import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509TrustManager;

/**
 * An implementation of TLS for HTTPS listeners, chosen by name with
 * {@link TlsConfig.Builder#engine}. {@value TlsConfig#JSSE} (the JDK's) is built in; others are
 * found with {@link java.util.ServiceLoader}, as {@code petrel-tls-native} provides
 * {@value TlsConfig#NATIVE}.
 *
 * <p>Petrel reads and checks the certificates itself, whatever the engine: a provider gets them as
 * a key manager that picks the certificate by the name the client asked for (SNI), so every engine
 * serves the same files with the same rules. A provider makes {@link SSLEngine}s in server mode,
 * which Petrel drives the same way on every transport; an engine holding native memory is handed
 * back through {@link Engines#release} once its connection is closed.
 */
public interface TlsEngineProvider {
    /** The name {@link TlsConfig.Builder#engine} chooses this provider by, e.g. {@value TlsConfig#NATIVE}. */
    String name();

    /**
     * Prepares engines for one loaded configuration (at start, and again at each certificate
     * reload).
     *
     * @throws TlsConfigException with one line saying what is wrong: the engine's library cannot
     *         load on this machine, or it supports none of the protocols or cipher suites asked for
     */
    Engines engines(Setup setup) throws TlsConfigException;

    /**
     * What a provider builds engines from.
     *
     * @param config the configuration: protocols, cipher suites in the server's order, ALPN
     *     protocols, client authentication
     * @param keyManager the certificates, read and checked; it chooses by SNI and by the key
     *     types the client can verify, and must be asked through
     *     {@link X509ExtendedKeyManager#chooseEngineServerAlias} with the engine in its handshake
     * @param trustManager what client certificates are checked against, or {@code null} when
     *     the configuration asks for none
     * @param namedGroups the key exchange groups, in the server's order, by their JSSE names
     *     ({@link TlsConfig#NAMED_GROUPS})
     * @param ocspResponses OCSP responses to staple, each for its certificate (read by Petrel from
     *     {@link TlsConfig#ocspResponse()}); empty for none. A provider that cannot staple them
     *     refuses a setup that has any.
     */
    record Setup(TlsConfig config, X509ExtendedKeyManager keyManager, X509TrustManager trustManager,
                 List<String> namedGroups, List<Staple> ocspResponses) {
        public Setup {
            Objects.requireNonNull(config, "config");
            Objects.requireNonNull(keyManager, "keyManager");
            namedGroups = List.copyOf(namedGroups);
            ocspResponses = List.copyOf(ocspResponses);
        }
    }

    /**
     * An OCSP response to staple to the handshakes that serve {@code certificate}.
     *
     * @param certificate the server certificate the response is about
     * @param response the DER-encoded OCSP response
     */
    record Staple(X509Certificate certificate, byte[] response) {
        public Staple {
            Objects.requireNonNull(certificate, "certificate");
            response = response.clone();
        }

        /** A copy of the DER-encoded response. */
        @Override
        public byte[] response() {
            return response.clone();
        }
    }

    /**
     * Server engines for one configuration. Thread-safe: connections on any thread make and
     * release engines at once.
     */
    interface Engines {
        /**
         * A server-mode engine for one new connection, configured: protocols, cipher suites in the
         * server's order, groups, ALPN, client authentication.
         *
         * @param peerHost the client's address, a hint for session caching
         * @param peerPort the client's port
         */
        SSLEngine newEngine(String peerHost, int peerPort);

        /**
         * Frees what {@code engine} holds (native memory), once: its connection is closed and no
         * thread uses the engine any more. The JSSE engine holds nothing to free.
         */
        default void release(SSLEngine engine) {}

        /**
         * Whether these engines work on native memory (OpenSSL, BoringSSL): Petrel then keeps each
         * connection's records in direct buffers, which such an engine reads and writes in place.
         * Given heap buffers it would copy every record into native memory of its own and back, on
         * each call. The JDK's engine works on arrays: false (the default).
         */
        default boolean wantsDirectBuffers() {
            return false;
        }

        /**
         * No engine will be made any more (the certificates were reloaded, or the server
         * stopped); what engines still live keep working until released.
         */
        default void close() {}

        /** What serves TLS, for the log: e.g. {@code JSSE (JDK 25.0.1)}, {@code BoringSSL (netty-tcnative 2.0.84)}. */
        String description();
    }
}
