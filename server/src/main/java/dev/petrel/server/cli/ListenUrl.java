package dev.petrel.server.cli;

import dev.petrel.server.AjpConfig;
import dev.petrel.server.Connector;
import dev.petrel.server.TlsConfig;
import java.util.List;
import java.util.Locale;

/**
 * One listener of {@code petrel serve}: a scheme, a host and a port, as {@code --host},
 * {@code --port}, {@code --https-port}, {@code --ajp-host} and {@code --ajp-port} make it.
 *
 * @param kind the protocol spoken
 * @param host a name or an IP literal, an IPv6 one without its brackets
 * @param port the port; 0 picks a free one
 */
record ListenUrl(Connector.Kind kind, String host, int port) {
    /**
     * The connector: HTTPS with {@code tls}, AJP with {@code ajp} on this host; HTTP and HTTPS
     * behind the PROXY protocol and trusting {@code trustedProxies} as asked (AJP takes the
     * client's details from its front end instead).
     */
    Connector connector(TlsConfig tls, AjpConfig ajp, boolean proxyProtocol, List<String> trustedProxies) {
        return switch (kind) {
            case HTTP -> Connector.http(port).host(host).proxyProtocol(proxyProtocol).trustedProxies(trustedProxies.toArray(String[]::new));
            case HTTPS -> Connector.https(port, tls).host(host).proxyProtocol(proxyProtocol)
                    .trustedProxies(trustedProxies.toArray(String[]::new));
            case AJP -> Connector.ajp(port, ajp.withHost(host));
        };
    }

    /** As a URL, e.g. {@code https://[::1]:8443}. */
    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT) + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
