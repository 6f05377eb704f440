package dev.petrel.server.websocket;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;

/**
 * The rule against cross-site WebSocket hijacking: a browser sends cookies with a WebSocket
 * handshake to any site, so a page of another origin could act as its user. A handshake whose
 * {@code Origin} (RFC 6454) names another origin than the server's own, and none that the route
 * allows, is refused. One without {@code Origin} comes from no browser and carries no ambient
 * credentials of a page: it is let through.
 */
final class OriginCheck {
    private final List<String> allowed; // lower case, without a trailing slash

    OriginCheck(List<String> allowedOrigins) {
        this.allowed = allowedOrigins.stream().map(OriginCheck::normalize).toList();
    }

    /**
     * Whether a handshake with {@code origin} (null: none) may open a session on a server reached
     * as {@code host} (the request's {@code Host}, with its port when it has one) over {@code scheme}.
     */
    boolean allows(String origin, String host, String scheme) {
        if (origin == null) return true;
        String normalized = normalize(origin);
        if (allowed.contains("*") || allowed.contains(normalized)) return true;
        if (host == null) return false;
        try {
            URI uri = new URI(normalized);
            String originScheme = uri.getScheme();
            if (originScheme == null || uri.getHost() == null || !originScheme.equals(scheme.toLowerCase(Locale.ROOT))) return false;
            return authority(uri.getHost(), uri.getPort(), originScheme).equals(authorityOfHost(host.toLowerCase(Locale.ROOT), originScheme));
        } catch (URISyntaxException e) {
            return false; // "null" (an opaque origin) and anything unparsable are another origin
        }
    }

    private static String normalize(String origin) {
        String lower = origin.trim().toLowerCase(Locale.ROOT);
        return lower.endsWith("/") ? lower.substring(0, lower.length() - 1) : lower;
    }

    private static String authorityOfHost(String host, String scheme) {
        int colon = host.lastIndexOf(':');
        if (colon > 0 && host.indexOf(']') < colon) {
            try {
                return authority(host.substring(0, colon), Integer.parseInt(host.substring(colon + 1)), scheme);
            } catch (NumberFormatException e) {
                return host;
            }
        }
        return authority(host, -1, scheme);
    }

    /** host:port with the scheme's default port written out, so that "example.com" and "example.com:443" compare equal. */
    private static String authority(String host, int port, String scheme) {
        int effective = port >= 0 ? port : "https".equals(scheme) ? 443 : 80;
        return host + ":" + effective;
    }
}
