package dev.petrel.server.config;

import dev.petrel.server.Server;
import java.util.List;
import java.util.Objects;

/**
 * One way into a server: an address, the protocol spoken there, and what stands in front of it.
 * A server has any number of connectors (two HTTP ports, HTTPS, AJP for Apache httpd); they share
 * its transport threads, connection limit, settings and handler.
 *
 * <pre>{@code
 * Server.builder()
 *         .connector(Connector.http(8080))
 *         .connector(Connector.https(8443, TlsConfig.pem(cert, key)))
 *         .connector(Connector.http(8081).host("0.0.0.0").proxyProtocol(true).trustedProxies("10.0.0.0/8"))
 *         .handler(app)
 *         .start();
 * }</pre>
 *
 * <p>Behind a proxy, a connector may require the PROXY protocol (HAProxy's, v1 or v2): every
 * connection must then come from one of its trusted proxies and begin with a PROXY header, and the
 * handler sees the client's address from it. Independently, requests from a trusted proxy may say
 * who the client was with {@code Forwarded} or {@code X-Forwarded-For}, {@code -Proto},
 * {@code -Host} and {@code -Port}; from anyone else those headers change nothing. AJP connectors
 * take the client's details from the front end's forward-request instead.
 */
public final class Connector {
    /** The protocol a connector speaks. */
    public enum Kind {
        /** HTTP/1.1 in clear text. */
        HTTP,
        /** HTTP/1.1 over TLS (the protocol chosen by ALPN, never one the server cannot speak). */
        HTTPS,
        /** AJP/1.3, for a front end such as Apache httpd's mod_jk or mod_proxy_ajp. */
        AJP
    }

    private final Kind kind;
    private final String host;
    private final int port;
    private final TlsConfig tls;
    private final AjpConfig ajp;
    private final boolean proxyProtocol;
    private final List<String> trustedProxies;

    private Connector(Kind kind, String host, int port, TlsConfig tls, AjpConfig ajp, boolean proxyProtocol,
                      List<String> trustedProxies) {
        if (port < 0 || port > 65535) throw new IllegalArgumentException("port must be 0 to 65535: " + port);
        this.kind = kind;
        this.host = host;
        this.port = port;
        this.tls = tls;
        this.ajp = ajp;
        this.proxyProtocol = proxyProtocol;
        this.trustedProxies = List.copyOf(trustedProxies);
        TrustedProxies.of(this.trustedProxies); // refuses what is not an address or a CIDR block
    }

    /** Plain HTTP on {@code port} (0 picks a free one), on the server's host. */
    public static Connector http(int port) {
        return new Connector(Kind.HTTP, null, port, null, null, false, List.of());
    }

    /** HTTPS on {@code port} (0 picks a free one), on the server's host, with the certificates of {@code tls}. */
    public static Connector https(int port, TlsConfig tls) {
        return new Connector(Kind.HTTPS, null, port, Objects.requireNonNull(tls, "tls"), null, false, List.of());
    }

    /** AJP/1.3 on {@code port} (0 picks a free one), on the host of {@code ajp} ({@code 127.0.0.1} unless it says otherwise). */
    public static Connector ajp(int port, AjpConfig ajp) {
        return new Connector(Kind.AJP, Objects.requireNonNull(ajp, "ajp").host(), port, null, ajp, false, List.of());
    }

    /** The same on another host: a name or IP literal; {@code 0.0.0.0} or {@code ::} for every interface. */
    public Connector host(String host) {
        return new Connector(kind, Objects.requireNonNull(host, "host"), port, tls, ajp, proxyProtocol, trustedProxies);
    }

    /**
     * The same, requiring (or not) a PROXY protocol header (v1 or v2) before each connection's
     * bytes; only the {@linkplain #trustedProxies trusted proxies} may send one, and a connection
     * without a valid header is closed. Off by default.
     */
    public Connector proxyProtocol(boolean required) {
        return new Connector(kind, host, port, tls, ajp, required, trustedProxies);
    }

    /**
     * The same, trusting the proxies at {@code cidrs} (IP literals, with or without a prefix
     * length: {@code 10.0.0.0/8}, {@code 2001:db8::/32}, {@code 127.0.0.1}) to send PROXY headers
     * and forwarding headers. None by default. Parsed as {@link TrustedProxies#of(List)} parses them.
     *
     * @throws IllegalArgumentException naming an entry that is not an address or a CIDR block
     */
    public Connector trustedProxies(String... cidrs) {
        return new Connector(kind, host, port, tls, ajp, proxyProtocol, List.of(cidrs));
    }

    /** The protocol spoken. */
    public Kind kind() {
        return kind;
    }

    /** The host to bind, or null for the server's. */
    public String host() {
        return host;
    }

    /** The port to bind; 0 for a free one. */
    public int port() {
        return port;
    }

    /** The TLS settings of an HTTPS connector, else null. */
    public TlsConfig tls() {
        return tls;
    }

    /** The AJP settings of an AJP connector, else null. */
    public AjpConfig ajp() {
        return ajp;
    }

    /** Whether a PROXY protocol header is required. */
    public boolean proxyProtocol() {
        return proxyProtocol;
    }

    /** The trusted proxies, as given. */
    public List<String> trustedProxies() {
        return trustedProxies;
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + " " + (host == null ? "" : host) + ":" + port
                + (proxyProtocol ? " with PROXY protocol" : "")
                + (trustedProxies.isEmpty() ? "" : " trusting " + String.join(", ", trustedProxies));
    }
}
