package dev.petrel.server.assembly;

import dev.petrel.server.config.Http2Config;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import dev.petrel.server.http2.Http2Protocol;
import java.util.List;

/**
 * The application protocols an HTTPS connector offers by ALPN: never one the server does not
 * speak, since a client that picked it would get HTTP/1.1 bytes back.
 */
final class AlpnOffer {
    private AlpnOffer() {}

    /**
     * {@code config} offering only what the server speaks with {@code http2}: {@code h2} first
     * when the defaults are asked for and HTTP/2 is on, as browsers expect.
     *
     * @throws TlsConfigException when it names protocols and the server speaks none of them
     */
    static TlsConfig servedOverTls(TlsConfig config, Http2Config http2) throws TlsConfigException {
        List<String> spoken = http2.enabled() ? List.of(Http2Protocol.ALPN, "http/1.1") : List.of("http/1.1");
        List<String> wanted = config.applicationProtocols();
        if (http2.enabled() && wanted.equals(TlsConfig.DEFAULT_APPLICATION_PROTOCOLS)) {
            return config.toBuilder().applicationProtocols(spoken.toArray(String[]::new)).build();
        }
        List<String> offered = wanted.stream().filter(spoken::contains).toList();
        if (offered.size() == wanted.size()) return config;
        if (offered.isEmpty()) {
            throw new TlsConfigException("none of the ALPN protocols " + wanted + " is served here; the server speaks "
                    + String.join(", ", spoken));
        }
        return config.toBuilder().applicationProtocols(offered.toArray(String[]::new)).build();
    }
}
