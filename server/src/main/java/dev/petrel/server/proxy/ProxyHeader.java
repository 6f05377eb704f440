package dev.petrel.server.proxy;

import java.net.InetSocketAddress;

/**
 * What a PROXY protocol header (v1 or v2) says of the connection a proxy accepted: the client's
 * address and the address it connected to, and, from a v2 header's TLS fields, whether the client
 * reached the proxy over TLS. A header that names no addresses ({@code PROXY UNKNOWN}, or v2's
 * {@code LOCAL} command a proxy sends for its own health checks) leaves the connection's own.
 *
 * @param source the client's address, or null to keep the connection's
 * @param destination the address the client connected to, or null to keep the connection's
 * @param tls whether the client used TLS to reach the proxy (v2 only)
 * @param tlsVersion the TLS version it used, e.g. {@code TLSv1.3}, or null
 * @param tlsCipher the cipher suite it used, or null
 */
public record ProxyHeader(InetSocketAddress source, InetSocketAddress destination, boolean tls, String tlsVersion,
                          String tlsCipher) {
    /** A header that keeps the connection's own addresses. */
    public static final ProxyHeader LOCAL = new ProxyHeader(null, null, false, null, null);
}
