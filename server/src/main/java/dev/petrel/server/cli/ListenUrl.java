package dev.petrel.server.cli;

import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.config.Connector;
import dev.petrel.server.config.TlsConfig;
import java.util.List;
import java.util.Locale;

/**
 * One listener of {@code petrel serve}: a scheme, a host and a port, as {@code --listen} takes it
 * ({@code http://0.0.0.0:8080}, {@code https://[::1]:8443}, {@code ajp://127.0.0.1:8009}) or as the
 * shorthands {@code --host}, {@code --port}, {@code --https-port} and {@code --ajp-port} make it.
 *
 * @param kind the protocol spoken
 * @param host a name or an IP literal, an IPv6 one without its brackets
 * @param port the port; 0 picks a free one
 */
record ListenUrl(Connector.Kind kind, String host, int port) {
    private static final String FORMS = "http://HOST:PORT, https://HOST:PORT or ajp://HOST:PORT (an IPv6 HOST in brackets)";

    /**
     * Reads {@code text}: a scheme, {@code ://}, a host (an IPv6 literal in brackets), {@code :} and a
     * port, and at most a {@code /} after it, as a URL copied from a browser has.
     *
     * @throws UsageException beginning with {@code subject}, quoting {@code text} and saying what is wrong
     */
    static ListenUrl parse(String text, String subject) throws UsageException {
        int colonSlashes = text.indexOf("://");
        if (colonSlashes < 0) throw bad(subject, text, "no scheme");
        Connector.Kind kind = switch (text.substring(0, colonSlashes).toLowerCase(Locale.ROOT)) {
            case "http" -> Connector.Kind.HTTP;
            case "https" -> Connector.Kind.HTTPS;
            case "ajp" -> Connector.Kind.AJP;
            default -> throw bad(subject, text, "the scheme is not http, https or ajp");
        };
        String authority = text.substring(colonSlashes + 3);
        if (authority.endsWith("/")) authority = authority.substring(0, authority.length() - 1);
        if (authority.contains("/") || authority.contains("?") || authority.contains("#") || authority.contains("@")) {
            throw bad(subject, text, "a listener is a host and a port, without a path, query or user");
        }
        String host;
        String port;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) throw bad(subject, text, "no ] after the IPv6 address");
            host = authority.substring(1, close);
            String address = host.contains("%") ? host.substring(0, host.indexOf('%')) : host; // a zone after % is a name
            if (!address.contains(":") || !address.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
                throw bad(subject, text, "'" + host + "' in brackets is not an IPv6 address");
            }
            if (!authority.startsWith(":", close + 1)) throw bad(subject, text, "no :PORT");
            port = authority.substring(close + 2);
        } else {
            int colon = authority.lastIndexOf(':');
            if (colon < 0) throw bad(subject, text, "no :PORT");
            host = authority.substring(0, colon);
            port = authority.substring(colon + 1);
            if (host.contains(":")) throw bad(subject, text, "an IPv6 address goes in brackets, e.g. http://[::1]:8080");
            if (host.contains("[") || host.contains("]") || host.chars().anyMatch(Character::isWhitespace)) {
                throw bad(subject, text, "'" + host + "' is not a host");
            }
        }
        if (host.isEmpty()) throw bad(subject, text, "no host (0.0.0.0 or [::] for every interface)");
        return new ListenUrl(kind, host, port(port, subject, text));
    }

    private static int port(String text, String subject, String url) throws UsageException {
        if (!text.isEmpty() && text.length() <= 5 && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            int port = Integer.parseInt(text);
            if (port <= 65535) return port;
        }
        throw bad(subject, url, "the port is a whole number from 0 to 65535" + (text.isEmpty() ? "" : ", not '" + text + "'"));
    }

    private static UsageException bad(String subject, String text, String why) {
        return new UsageException(subject + " takes " + FORMS + ", not '" + text + "': " + why);
    }

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

    /** As {@code --listen} takes it, e.g. {@code https://[::1]:8443}. */
    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT) + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
