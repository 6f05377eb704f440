package dev.petrel.server.proxy;

import dev.petrel.http.HeaderFields;
import dev.petrel.server.TlsDetails;
import dev.petrel.server.config.TrustedProxies;
import dev.petrel.server.engine.connection.RequestOrigin;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where a request came from when a trusted proxy forwarded it: the client's address, the scheme
 * and host it used, as RFC 7239's {@code Forwarded} or the de-facto {@code X-Forwarded-For},
 * {@code -Proto}, {@code -Host} and {@code -Port} say. Believed only when the connection itself
 * comes from a trusted proxy; from anyone else they are ignored, since any client can send them.
 *
 * <p>The client is found from the right: each proxy appends the address it received the request
 * from, so the addresses are walked from the last one leftwards past every trusted proxy, and the
 * first one that is not a trusted proxy is the client. Its scheme and host come from the same
 * {@code Forwarded} element, or from the {@code X-Forwarded-Proto} and {@code -Host} the edge
 * proxy set. {@code Forwarded} wins when both kinds are present. A value that is not an IP
 * literal ({@code unknown}, an obfuscated name) ends the walk at the last address known.
 *
 * <p>One per connection, re-armed per request; nothing is allocated for a request without such
 * headers.
 */
public final class ForwardedOrigin implements RequestOrigin {
    private final TrustedProxies trusted;
    private RequestOrigin connection;
    private InetSocketAddress remote;
    private InetSocketAddress local;
    private String scheme;
    private String host; // what the proxy forwarded, or null: the request's own

    /** Forwarding believed from {@code trusted}. */
    public ForwardedOrigin(TrustedProxies trusted) {
        this.trusted = trusted;
    }

    /**
     * Reads the forwarding headers of a request received on {@code connection}; returns whether
     * they apply, after which this origin (and its {@link #host(String)}) is what the request must
     * say. False when the connection is not from a trusted proxy or the
     * request carries no forwarding: then the connection is the origin, as it was.
     */
    public boolean apply(HeaderFields headers, RequestOrigin connection) {
        if (!trusted.trusts(connection.remoteAddress().getAddress())) return false;
        boolean forwarded = headers.contains("Forwarded");
        if (!forwarded && !headers.contains("X-Forwarded-For") && !headers.contains("X-Forwarded-Proto")
                && !headers.contains("X-Forwarded-Host")) {
            return false;
        }
        this.connection = connection;
        this.remote = connection.remoteAddress();
        this.local = connection.localAddress();
        this.scheme = connection.scheme();
        this.host = null;
        if (forwarded) applyForwarded(headers.all("Forwarded"));
        else applyXForwarded(headers);
        return true;
    }

    /** The host the client asked the proxy for, when it forwarded one; else {@code requested}. */
    @Override
    public String host(String requested) {
        return host != null ? host : requested;
    }

    private void applyForwarded(List<String> fields) {
        List<String> elements = new ArrayList<>();
        for (String field : fields) elements.addAll(splitList(field));
        for (int i = elements.size() - 1; i >= 0; i--) {
            String element = elements.get(i);
            InetSocketAddress from = address(parameter(element, "for"), 0); // no port given: unknown
            if (from == null) return; // unknown or obfuscated: the client cannot be known beyond here
            remote = from;
            String proto = parameter(element, "proto");
            if (proto != null && (proto.equalsIgnoreCase("http") || proto.equalsIgnoreCase("https"))) {
                scheme = proto.toLowerCase(Locale.ROOT);
            }
            String forwardedHost = parameter(element, "host");
            if (forwardedHost != null && !forwardedHost.isEmpty()) host = forwardedHost;
            if (!trusted.trusts(from.getAddress())) return; // the client
        }
    }

    private void applyXForwarded(HeaderFields headers) {
        List<String> chain = new ArrayList<>();
        for (String field : headers.all("X-Forwarded-For")) chain.addAll(splitList(field));
        for (int i = chain.size() - 1; i >= 0; i--) {
            InetSocketAddress from = address(chain.get(i), 0);
            if (from == null) break;
            remote = from;
            if (!trusted.trusts(from.getAddress())) break;
        }
        String proto = first(headers.first("X-Forwarded-Proto"));
        if (proto != null && (proto.equalsIgnoreCase("http") || proto.equalsIgnoreCase("https"))) {
            scheme = proto.toLowerCase(Locale.ROOT);
        }
        String forwardedHost = first(headers.first("X-Forwarded-Host"));
        if (forwardedHost != null && !forwardedHost.isEmpty()) host = forwardedHost;
        String port = first(headers.first("X-Forwarded-Port"));
        if (port != null && port.matches("[0-9]{1,5}") && Integer.parseInt(port) <= 65535) {
            local = new InetSocketAddress(local.getAddress(), Integer.parseInt(port));
        }
    }

    /** The first (the edge proxy's) value of a comma-separated list, or null. */
    private static String first(String value) {
        if (value == null) return null;
        int comma = value.indexOf(',');
        return (comma < 0 ? value : value.substring(0, comma)).strip();
    }

    /** The elements of a comma-separated list, outside quoted strings. */
    private static List<String> splitList(String value) {
        List<String> parts = new ArrayList<>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"') quoted = !quoted;
            else if (c == ',' && !quoted) {
                parts.add(value.substring(start, i).strip());
                start = i + 1;
            }
        }
        parts.add(value.substring(start).strip());
        return parts;
    }

    /** The value of {@code name}{@code =} in a {@code Forwarded} element, unquoted, or null. */
    private static String parameter(String element, String name) {
        for (String pair : element.split(";")) {
            int equals = pair.indexOf('=');
            if (equals < 0) continue;
            if (!pair.substring(0, equals).strip().equalsIgnoreCase(name)) continue;
            String value = pair.substring(equals + 1).strip();
            if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) value = value.substring(1, value.length() - 1);
            return value;
        }
        return null;
    }

    /**
     * An address from a forwarding header: an IPv4 literal, or a bracketed IPv6 one, either with
     * an optional port; never looked up in DNS. Null for anything else.
     */
    private static InetSocketAddress address(String value, int defaultPort) {
        if (value == null || value.isEmpty()) return null;
        String host = value;
        int port = defaultPort;
        if (value.startsWith("[")) {
            int close = value.indexOf(']');
            if (close < 0) return null;
            host = value.substring(1, close);
            if (close + 1 < value.length()) {
                if (value.charAt(close + 1) != ':') return null;
                port = port(value.substring(close + 2));
            }
        } else if (value.indexOf(':') >= 0 && value.indexOf(':') == value.lastIndexOf(':')) {
            host = value.substring(0, value.indexOf(':'));
            port = port(value.substring(value.indexOf(':') + 1));
        }
        if (port < 0) return null;
        try {
            InetAddress address = InetAddress.ofLiteral(host);
            return new InetSocketAddress(address, port);
        } catch (IllegalArgumentException notLiteral) {
            return null;
        }
    }

    private static int port(String text) {
        if (!text.matches("[0-9]{1,5}")) return -1;
        int port = Integer.parseInt(text);
        return port <= 65535 ? port : -1;
    }

    @Override
    public String scheme() {
        return scheme;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remote;
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    /** The connection's own TLS; what the client negotiated with the proxy is not forwarded. */
    @Override
    public TlsDetails tls() {
        return connection.tls();
    }
}
