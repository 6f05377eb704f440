package dev.petrel.tomcat;

import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.config.Connector;
import dev.petrel.server.config.TlsConfig;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Petrel's AJP/1.3 connector for Tomcat, behind Apache httpd's mod_jk or mod_proxy_ajp:
 * {@code <Connector port="8009" protocol="dev.petrel.tomcat.PetrelAjpProtocol" secret="..."/>}.
 * As Tomcat's own AJP connectors since 9.0.31, a secret is required unless
 * {@code secretRequired="false"}, and request attributes beyond the standard ones are refused
 * (403) unless {@code allowedRequestAttributesPattern} matches them.
 */
public class PetrelAjpProtocol extends PetrelProtocol {
    private static final Set<String> CODED_HEADERS = Set.of("Accept", "Accept-Charset", "Accept-Encoding", "Accept-Language",
            "Authorization", "Connection", "Content-Type", "Content-Length", "Cookie", "Cookie2", "Host", "Pragma", "Referer",
            "User-Agent");

    private String secret;
    private boolean secretRequired = true;
    private int packetSize = 8192;
    private String allowedRequestAttributesPattern;

    /** A connector on port 8009 until its attributes say otherwise. */
    public PetrelAjpProtocol() {
        setPort(8009);
    }

    /** The secret the front end sends (mod_jk's {@code worker.NAME.secret}, mod_proxy_ajp's {@code secret=}). */
    public String getSecret() {
        return secret;
    }

    public void setSecret(String secret) {
        this.secret = secret;
    }

    /** Whether a secret is required (default true); false lets anyone who can connect claim any client. */
    public boolean getSecretRequired() {
        return secretRequired;
    }

    public void setSecretRequired(boolean secretRequired) {
        this.secretRequired = secretRequired;
    }

    /** The AJP packet size, 8192 to 65536; the front end's must be the same. */
    public int getPacketSize() {
        return packetSize;
    }

    public void setPacketSize(int packetSize) {
        this.packetSize = packetSize;
    }

    /** A regular expression for the request attributes allowed beyond the standard ones. */
    public String getAllowedRequestAttributesPattern() {
        return allowedRequestAttributesPattern;
    }

    public void setAllowedRequestAttributesPattern(String pattern) {
        Pattern.compile(pattern); // refused now, at configuration, when it is not a regular expression
        this.allowedRequestAttributesPattern = pattern;
    }

    @Override
    Connector connector(String host, int port, TlsConfig tls) {
        if (tls != null) {
            throw new IllegalArgumentException("AJP carries no TLS of its own: the front end terminates it (SSLEnabled is for HTTP connectors)");
        }
        AjpConfig config;
        if (secret != null && !secret.isEmpty()) {
            config = AjpConfig.withSecret(secret);
        } else if (secretRequired) {
            throw new IllegalArgumentException("The AJP connector on port " + port + " requires a secret: set the secret"
                    + " attribute (the front end's secret), or secretRequired=\"false\" where only the front end can connect");
        } else {
            config = AjpConfig.withoutSecret();
        }
        config = config.withHost(host).withPacketSize(packetSize);
        if (allowedRequestAttributesPattern != null) {
            config = config.withAllowedAttributePattern(Pattern.compile(allowedRequestAttributesPattern));
        }
        return Connector.ajp(port, config);
    }

    /**
     * The headers AJP sends as codes (mod_jk and mod_proxy_ajp code every one of them) in lower
     * case, as Tomcat's AJP connector names them; Petrel's codec spells them as HTTP does.
     */
    @Override
    String headerName(String name) {
        return CODED_HEADERS.contains(name) ? name.toLowerCase(Locale.ROOT) : name;
    }

    /** AJP sends a body in packets of at most {@code packetSize}: a file is copied into them. */
    @Override
    boolean carriesFilesAsTheyAre() {
        return false;
    }

    @Override
    boolean carriesUpgrade() {
        return false;
    }

    @Override
    boolean carriesTrailers() {
        return false;
    }

    @Override
    String namePrefix() {
        return "petrel-ajp";
    }
}
