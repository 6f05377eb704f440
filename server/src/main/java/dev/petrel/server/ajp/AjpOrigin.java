package dev.petrel.server.ajp;

import dev.petrel.ajp.AjpRequestHead;
import dev.petrel.server.TlsDetails;
import dev.petrel.server.engine.connection.RequestOrigin;
import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where an AJP request came from, as the front end reported it: the client's address, scheme and
 * TLS details, which the AJP listener alone believes, and the attributes it forwarded. Re-armed for
 * every request; what is derived (addresses, TLS details, attributes) is made on first use.
 */
final class AjpOrigin implements RequestOrigin {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.ajp");
    private static final String REMOTE_PORT = "AJP_REMOTE_PORT";
    private static final String LOCAL_ADDRESS = "AJP_LOCAL_ADDR";
    private static final String SSL_PROTOCOL = "AJP_SSL_PROTOCOL";

    private AjpRequestHead head;
    private InetSocketAddress remote;
    private InetSocketAddress local;
    private TlsDetails tls;
    private Map<String, String> attributes;

    void begin(AjpRequestHead head) {
        this.head = head;
        this.remote = null;
        this.local = null;
        this.tls = null;
        this.attributes = null;
    }

    @Override
    public String scheme() {
        return head.ssl() ? "https" : "http";
    }

    /** The client as the front end saw it: its address and, when the front end sent it, its port. */
    @Override
    public InetSocketAddress remoteAddress() {
        if (remote == null) remote = address(head.remoteAddress(), port(head.attribute(REMOTE_PORT)));
        return remote;
    }

    /** The front end's address and port the client connected to. */
    @Override
    public InetSocketAddress localAddress() {
        if (local == null) {
            String address = head.attribute(LOCAL_ADDRESS);
            local = address(address != null ? address : head.serverName(), head.serverPort());
        }
        return local;
    }

    @Override
    public TlsDetails tls() {
        if (!head.ssl()) return null;
        if (tls == null) {
            tls = new TlsDetails(head.attribute(SSL_PROTOCOL), head.sslCipher(), head.sslKeySize(), head.sslSession(),
                    certificates(head.sslCertificate()));
        }
        return tls;
    }

    /** The allowed attributes the front end sent, but for the address and port already in the request. */
    @Override
    public Map<String, String> attributes() {
        if (attributes == null) {
            Map<String, String> map = new LinkedHashMap<>();
            for (int i = 0; i < head.attributeCount(); i++) {
                String name = head.attributeName(i);
                if (!name.equals(REMOTE_PORT) && !name.equals(LOCAL_ADDRESS)) map.put(name, head.attributeValue(i));
            }
            attributes = Collections.unmodifiableMap(map); // in the order the front end sent them
        }
        return attributes;
    }

    /**
     * An address from what the front end reported, never looked up in DNS: an IP literal as such,
     * anything else (a host name, or nothing usable) unresolved.
     */
    private static InetSocketAddress address(String host, int port) {
        String name = host == null || host.isEmpty() ? "0.0.0.0" : host;
        try {
            return new InetSocketAddress(InetAddress.ofLiteral(name), port);
        } catch (IllegalArgumentException notLiteral) {
            return InetSocketAddress.createUnresolved(name, port);
        }
    }

    private static int port(String value) {
        if (value == null) return 0;
        try {
            int port = Integer.parseInt(value.strip());
            return port >= 0 && port <= 65535 ? port : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The client certificates the front end forwarded as PEM; none when it sent none or they do not parse. */
    private List<X509Certificate> certificates(String pem) {
        if (pem == null || pem.isBlank()) return List.of();
        try {
            List<X509Certificate> chain = new ArrayList<>();
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            for (var certificate : factory.generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.ISO_8859_1)))) {
                chain.add((X509Certificate) certificate);
            }
            return chain;
        } catch (CertificateException e) {
            LOG.log(System.Logger.Level.WARNING, "the client certificate forwarded over AJP for " + head + " does not parse: "
                    + e.getMessage());
            return List.of();
        }
    }

    @Override
    public String toString() {
        return head.toString();
    }
}
