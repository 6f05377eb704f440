package dev.petrel.server.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.StandardConstants;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Picks the certificate for each handshake by the server name the client asked for (SNI).
 *
 * <p>Candidates are ranked: certificates naming the host exactly, then those covering it by
 * wildcard, then the default (first) certificate, then the rest. JSSE asks once per key type the
 * client can verify (EC, RSA, EdDSA), in the client's order, so answering "the first candidate of
 * this key type" would let the client's favourite key type beat the name. Instead the first
 * candidate whose key type the client accepts (its {@code signature_algorithms}) is chosen, and
 * only the question for that key type gets an answer; when the client's algorithms are not known,
 * the first candidate of the asked type wins.
 *
 * <p>No {@link javax.net.ssl.SNIMatcher} is installed: a name no certificate covers gets the
 * default certificate rather than an {@code unrecognized_name} alert, as most servers do.
 */
final class SniKeyManager extends X509ExtendedKeyManager {
    private static final String ALIAS_PREFIX = "petrel-";

    private final List<ServerCertificate> certificates;

    /** @param certificates at least one; the first is the default */
    SniKeyManager(List<ServerCertificate> certificates) {
        if (certificates.isEmpty()) throw new IllegalArgumentException("no certificate");
        this.certificates = List.copyOf(certificates);
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return choose(keyType, engine == null ? null : engine.getHandshakeSession());
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return choose(keyType, socket instanceof SSLSocket ssl ? ssl.getHandshakeSession() : null);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        ServerCertificate certificate = byAlias(alias);
        return certificate == null ? null : certificate.chain().toArray(X509Certificate[]::new);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        ServerCertificate certificate = byAlias(alias);
        return certificate == null ? null : certificate.privateKey();
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        List<String> aliases = new ArrayList<>();
        for (int i = 0; i < certificates.size(); i++) {
            if (certificates.get(i).keyType().equals(keyType)) aliases.add(ALIAS_PREFIX + i);
        }
        return aliases.isEmpty() ? null : aliases.toArray(String[]::new);
    }

    /** A server never authenticates as a client. */
    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    /** A server never authenticates as a client. */
    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
        return null;
    }

    /** A server never authenticates as a client. */
    @Override
    public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
        return null;
    }

    private String choose(String keyType, SSLSession handshake) {
        // One certificate, the common case: nothing to rank, and whether the client accepts its key type
        // changes nothing (it is served to a client of that type either way); the handshake's names and
        // algorithms are not fetched, which over BoringSSL is a call into native code for each
        if (certificates.size() == 1) return certificates.getFirst().keyType().equals(keyType) ? ALIAS_PREFIX + 0 : null;
        List<Integer> ranked = rank(requestedHost(handshake));
        Set<String> accepted = acceptedKeyTypes(handshake);
        for (int index : ranked) {
            String type = certificates.get(index).keyType();
            if (accepted == null ? type.equals(keyType) : accepted.contains(type)) {
                return type.equals(keyType) ? ALIAS_PREFIX + index : null;
            }
        }
        // the client accepts none of our key types by its list; let JSSE try what it asks for
        for (int index : ranked) {
            if (certificates.get(index).keyType().equals(keyType)) return ALIAS_PREFIX + index;
        }
        return null;
    }

    /** Indexes into {@link #certificates}, best first, for the requested host (null: none). */
    private List<Integer> rank(String host) {
        List<Integer> ranked = new ArrayList<>(certificates.size());
        if (host != null) {
            for (int i = 0; i < certificates.size(); i++) if (certificates.get(i).covers(host, true)) ranked.add(i);
            for (int i = 0; i < certificates.size(); i++) {
                if (!ranked.contains(i) && certificates.get(i).covers(host, false)) ranked.add(i);
            }
        }
        for (int i = 0; i < certificates.size(); i++) if (!ranked.contains(i)) ranked.add(i);
        return ranked;
    }

    private ServerCertificate byAlias(String alias) {
        if (alias == null || !alias.startsWith(ALIAS_PREFIX)) return null;
        try {
            int index = Integer.parseInt(alias.substring(ALIAS_PREFIX.length()));
            return index >= 0 && index < certificates.size() ? certificates.get(index) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String requestedHost(SSLSession handshake) {
        if (!(handshake instanceof ExtendedSSLSession session)) return null;
        for (SNIServerName name : session.getRequestedServerNames()) {
            if (name.getType() == StandardConstants.SNI_HOST_NAME && name instanceof SNIHostName host) {
                return HostNames.normalize(host.getAsciiName());
            }
        }
        return null;
    }

    /**
     * The key types the client can verify, from the JSSE names of its signature algorithms
     * ({@code SHA256withECDSA}, {@code RSASSA-PSS}, {@code Ed25519}...); null when unknown.
     */
    private static Set<String> acceptedKeyTypes(SSLSession handshake) {
        if (!(handshake instanceof ExtendedSSLSession session)) return null;
        String[] algorithms = session.getPeerSupportedSignatureAlgorithms();
        if (algorithms == null || algorithms.length == 0) return null;
        Set<String> types = new HashSet<>();
        for (String algorithm : algorithms) {
            if (algorithm.endsWith("withECDSA")) {
                types.add("EC");
            } else if (algorithm.equals("RSASSA-PSS")) {
                // JSSE gives rsa_pss_rsae (RSA keys) and rsa_pss_pss (RSASSA-PSS keys) the same name
                types.add("RSA");
                types.add("RSASSA-PSS");
            } else if (algorithm.endsWith("withRSA")) {
                types.add("RSA");
            } else if (algorithm.startsWith("Ed")) {
                types.add("EdDSA");
            } else if (algorithm.endsWith("withDSA")) {
                types.add("DSA");
            }
        }
        return types.isEmpty() ? null : types;
    }
}
