package dev.petrel.server.tls;

import dev.petrel.server.TlsDetails;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.StandardConstants;

/**
 * What a TLS handshake settled, read once from the engine when it completes: the protocol version,
 * the cipher suite, the ALPN choice, the host name the client asked for by SNI, and the details a
 * request reports ({@link TlsDetails}: the session id and the client's verified chain).
 *
 * @param protocol {@code TLSv1.3} or {@code TLSv1.2}
 * @param cipherSuite the negotiated cipher suite
 * @param applicationProtocol the protocol chosen by ALPN, or null when the client offered none
 * @param serverName the SNI host name, or null when the client sent none
 * @param details what requests over the connection report
 */
record NegotiatedSession(String protocol, String cipherSuite, String applicationProtocol, String serverName,
                         TlsDetails details) {
    /** What {@code engine}'s completed handshake settled. */
    static NegotiatedSession of(SSLEngine engine) {
        SSLSession session = engine.getSession();
        String protocol = session.getProtocol();
        String cipherSuite = session.getCipherSuite();
        String alpn = engine.getApplicationProtocol();
        byte[] id = session.getId();
        TlsDetails details = new TlsDetails(protocol, cipherSuite, TlsDetails.keySizeOf(cipherSuite),
                id == null || id.length == 0 ? null : HexFormat.of().formatHex(id), clientCertificates(engine, session));
        return new NegotiatedSession(protocol, cipherSuite, alpn == null || alpn.isEmpty() ? null : alpn,
                requestedHostName(session), details);
    }

    /** Whether the protocol is TLS 1.3 (its close and post-handshake messages differ from 1.2's). */
    boolean tls13() {
        return "TLSv1.3".equals(protocol);
    }

    /** The client's verified chain, when the server asked for one and the client sent it; else empty. */
    private static List<X509Certificate> clientCertificates(SSLEngine engine, SSLSession session) {
        if (!engine.getNeedClientAuth() && !engine.getWantClientAuth()) return List.of(); // not asked: no exception to pay for
        try {
            List<X509Certificate> chain = new ArrayList<>();
            for (Certificate c : session.getPeerCertificates()) {
                if (c instanceof X509Certificate x509) chain.add(x509);
            }
            return chain;
        } catch (SSLPeerUnverifiedException none) {
            return List.of(); // asked, optional, and the client sent none
        }
    }

    private static String requestedHostName(SSLSession session) {
        if (!(session instanceof ExtendedSSLSession extended)) return null;
        for (SNIServerName name : extended.getRequestedServerNames()) {
            if (name instanceof SNIHostName host) return host.getAsciiName();
            if (name.getType() == StandardConstants.SNI_HOST_NAME) return new SNIHostName(name.getEncoded()).getAsciiName();
        }
        return null;
    }
}
