package dev.petrel.server.config;

import dev.petrel.ajp.AjpPackets;
import dev.petrel.server.Request;
import dev.petrel.server.Server;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The AJP/1.3 listener's settings, for a server fronted by Apache httpd with mod_jk or
 * mod_proxy_ajp. Safe by default, after Tomcat's hard lessons (CVE-2020-1938, "Ghostcat"):
 * <ul>
 *   <li>it listens on {@code 127.0.0.1} unless told otherwise, since AJP carries no authentication of its own;</li>
 *   <li>a shared secret is required unless explicitly turned off ({@link #withoutSecret()}, which logs a warning at start);</li>
 *   <li>a request carrying an attribute outside {@link #allowedAttributes()} is refused with {@code 403}.</li>
 * </ul>
 * The client address, port, scheme and TLS details a front end forwards are believed only on
 * this listener; the HTTP listeners never read them from headers.
 *
 * <pre>{@code
 * Server.builder()
 *         .ajp(8009, AjpConfig.withSecret(Files.readString(Path.of("ajp.secret")).strip()))
 *         .handler(...)
 *         .start();
 * }</pre>
 *
 * <p>Immutable; the {@code with...} methods return changed copies.
 */
public final class AjpConfig {
    /**
     * Attributes mod_jk and mod_proxy_ajp send on their own: the client's port, the front end's
     * local address, the TLS protocol, and mod_jk's load-balancer activation state.
     */
    public static final Set<String> STANDARD_ATTRIBUTES = Set.of("AJP_REMOTE_PORT", "AJP_LOCAL_ADDR", "AJP_SSL_PROTOCOL",
            "JK_LB_ACTIVATION");

    private final String secret;
    private final String host;
    private final int packetSize;
    private final Set<String> extraAttributes;
    private final Duration idleTimeout;
    private final Pattern attributePattern;

    private AjpConfig(String secret, String host, int packetSize, Set<String> extraAttributes, Duration idleTimeout,
                      Pattern attributePattern) {
        this.secret = secret;
        this.host = host;
        this.packetSize = packetSize;
        this.extraAttributes = extraAttributes;
        this.idleTimeout = idleTimeout;
        this.attributePattern = attributePattern;
    }

    /**
     * Requires every request to carry {@code secret}: mod_jk's {@code worker.NAME.secret}, or
     * mod_proxy_ajp's {@code secret=} parameter of {@code ProxyPass}.
     */
    public static AjpConfig withSecret(String secret) {
        Objects.requireNonNull(secret, "secret");
        if (secret.isBlank()) throw new IllegalArgumentException("the AJP secret must not be empty");
        return new AjpConfig(secret, "127.0.0.1", AjpPackets.DEFAULT_PACKET_SIZE, Set.of(), Duration.ZERO, null);
    }

    /**
     * Accepts requests without a secret: anyone who can connect to the port can then claim any
     * client address, scheme and TLS details. Only where the port is reachable by the front end
     * alone; the server logs a warning at start.
     */
    public static AjpConfig withoutSecret() {
        return new AjpConfig(null, "127.0.0.1", AjpPackets.DEFAULT_PACKET_SIZE, Set.of(), Duration.ZERO, null);
    }

    /** The address to listen on (default {@code 127.0.0.1}): a name or IP literal. */
    public AjpConfig withHost(String host) {
        return new AjpConfig(secret, Objects.requireNonNull(host, "host"), packetSize, extraAttributes, idleTimeout, attributePattern);
    }

    /**
     * The AJP packet size in bytes, 8192 (the default) to 65536. It must equal the front end's:
     * mod_jk's {@code worker.NAME.max_packet_size}, mod_proxy_ajp's {@code ProxyIOBufferSize}.
     */
    public AjpConfig withPacketSize(int bytes) {
        if (bytes < AjpPackets.DEFAULT_PACKET_SIZE || bytes > AjpPackets.MAX_PACKET_SIZE) {
            throw new IllegalArgumentException("the AJP packet size must be " + AjpPackets.DEFAULT_PACKET_SIZE + " to "
                    + AjpPackets.MAX_PACKET_SIZE + " bytes: " + bytes);
        }
        return new AjpConfig(secret, host, bytes, extraAttributes, idleTimeout, attributePattern);
    }

    /**
     * Also allows these request attributes (for example environment variables sent with mod_jk's
     * {@code JkEnvVar}); handlers read them from {@code Request.attributes()}.
     */
    public AjpConfig withAllowedAttributes(String... names) {
        Set<String> extra = new TreeSet<>(extraAttributes);
        for (String name : names) {
            if (name == null || name.isBlank()) throw new IllegalArgumentException("empty attribute name");
            extra.add(name);
        }
        return new AjpConfig(secret, host, packetSize, Set.copyOf(extra), idleTimeout, attributePattern);
    }

    /**
     * How long a connection may wait for the front end's next request; zero (the default) waits
     * as long as the front end keeps it, as Tomcat does, since the front end pools its
     * connections and closes them itself (mod_jk's {@code connection_pool_timeout}).
     */
    public AjpConfig withIdleTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) throw new IllegalArgumentException("the idle timeout must not be negative");
        return new AjpConfig(secret, host, packetSize, extraAttributes, timeout, attributePattern);
    }

    /** The shared secret, or {@code null} when turned off. */
    public String secret() {
        return secret;
    }

    /** Whether requests must carry the secret. */
    public boolean requiresSecret() {
        return secret != null;
    }

    /** The address to listen on. */
    public String host() {
        return host;
    }

    /** The packet size in bytes. */
    public int packetSize() {
        return packetSize;
    }

    /** Every attribute a request may carry: {@link #STANDARD_ATTRIBUTES} and the ones allowed in addition. */
    public Set<String> allowedAttributes() {
        Set<String> all = new TreeSet<>(STANDARD_ATTRIBUTES);
        all.addAll(extraAttributes);
        return all;
    }

    /**
     * Also allows the request attributes whose whole name matches {@code pattern}: Tomcat's
     * {@code allowedRequestAttributesPattern}, for attributes named by a front end's config.
     */
    public AjpConfig withAllowedAttributePattern(Pattern pattern) {
        return new AjpConfig(secret, host, packetSize, extraAttributes, idleTimeout, Objects.requireNonNull(pattern, "pattern"));
    }

    /** Whether a request may carry an attribute named {@code name}. */
    public boolean allowsAttribute(String name) {
        return STANDARD_ATTRIBUTES.contains(name) || extraAttributes.contains(name)
                || attributePattern != null && attributePattern.matcher(name).matches();
    }

    /** The idle timeout, zero for none. */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    @Override
    public String toString() {
        return "AjpConfig[host=" + host + ", secret=" + (secret != null ? "required" : "OFF") + ", packetSize=" + packetSize
                + ", allowedAttributes=" + allowedAttributes()
                + (attributePattern == null ? "" : ", allowedAttributePattern=" + attributePattern) + ", idleTimeout=" + idleTimeout + "]";
    }
}
