package dev.petrel.tomcat;

import dev.petrel.server.config.Connector;
import dev.petrel.server.config.TlsConfig;
import java.util.Arrays;

/**
 * Petrel's HTTP/1.1 connector for Tomcat:
 * {@code <Connector port="8080" protocol="dev.petrel.tomcat.PetrelHttp11Protocol" transport="nio"/>}
 * in {@code server.xml} (behind HAProxy's {@code send-proxy-v2}, add {@code proxyProtocol="true"
 * trustedProxies="127.0.0.1"}), or {@code new Connector(new PetrelHttp11Protocol())} embedded. Catalina,
 * Jasper and the applications above it run unchanged; Petrel parses, limits, frames and paces
 * the exchanges.
 */
public class PetrelHttp11Protocol extends PetrelProtocol {
    private boolean proxyProtocol;
    private String trustedProxies = "";

    /** A connector on port 8080, {@code nio} transport, until its attributes say otherwise. */
    public PetrelHttp11Protocol() {}

    /**
     * Whether each connection must start with a PROXY protocol header (v1 or v2), as HAProxy's
     * {@code send-proxy-v2} sends: the servlet's {@code getRemoteAddr()} is then the client's
     * address the header names. Only the {@linkplain #setTrustedProxies trusted proxies} may send
     * one; a connection without a valid header is closed. Off by default.
     */
    public boolean getProxyProtocol() {
        return proxyProtocol;
    }

    public void setProxyProtocol(boolean proxyProtocol) {
        this.proxyProtocol = proxyProtocol;
    }

    /**
     * The proxies trusted to send PROXY headers and forwarding headers: IP literals with or
     * without a prefix length, separated by commas ({@code "127.0.0.1, 10.0.0.0/8"}). None by
     * default; an entry that is not an address or a CIDR block fails the connector's start.
     */
    public String getTrustedProxies() {
        return trustedProxies;
    }

    public void setTrustedProxies(String trustedProxies) {
        this.trustedProxies = trustedProxies == null ? "" : trustedProxies;
    }

    @Override
    Connector connector(String host, int port, TlsConfig tls) {
        String[] trusted = Arrays.stream(trustedProxies.split(",")).map(String::strip).filter(s -> !s.isEmpty())
                .toArray(String[]::new);
        return (tls == null ? Connector.http(port) : Connector.https(port, tls)).host(host)
                .proxyProtocol(proxyProtocol).trustedProxies(trusted);
    }

    @Override
    boolean carriesUpgrade() {
        return true;
    }

    @Override
    boolean carriesTrailers() {
        return true;
    }

    @Override
    String namePrefix() {
        return getSSLEnabled() ? "petrel-https" : "petrel-http";
    }
}
