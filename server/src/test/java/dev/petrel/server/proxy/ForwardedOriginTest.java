package dev.petrel.server.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.HeaderFields;
import dev.petrel.http.HttpLimits;
import dev.petrel.http.ParseStatus;
import dev.petrel.http.RequestParser;
import dev.petrel.server.TlsDetails;
import dev.petrel.server.config.TrustedProxies;
import dev.petrel.server.engine.connection.RequestOrigin;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Who the client was, as trusted proxies say in {@code Forwarded} and {@code X-Forwarded-*}, and never as anyone else says. */
class ForwardedOriginTest {
    private static final TrustedProxies TRUSTED = TrustedProxies.of(List.of("10.0.0.0/8", "2001:db8::/32"));

    private record Connection(InetSocketAddress remoteAddress, InetSocketAddress localAddress, String scheme) implements RequestOrigin {
        @Override
        public TlsDetails tls() {
            return null;
        }
    }

    private static final Connection FROM_PROXY = new Connection(new InetSocketAddress("10.0.0.5", 40000),
            new InetSocketAddress("10.0.0.1", 8080), "http");
    private static final Connection FROM_ANYONE = new Connection(new InetSocketAddress("203.0.113.50", 40000),
            new InetSocketAddress("10.0.0.1", 8080), "http");

    private static HeaderFields headers(String... lines) {
        RequestParser parser = new RequestParser(HttpLimits.DEFAULT);
        String head = "GET / HTTP/1.1\r\nHost: internal:8080\r\n" + String.join("\r\n", lines) + (lines.length > 0 ? "\r\n" : "") + "\r\n";
        assertThat(parser.parse(ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1)))).isEqualTo(ParseStatus.COMPLETE);
        return parser.head().headers();
    }

    @Test
    void xForwardedForFromATrustedProxyNamesTheClient() {
        ForwardedOrigin origin = new ForwardedOrigin(TRUSTED);
        assertThat(origin.apply(headers("X-Forwarded-For: 198.51.100.7", "X-Forwarded-Proto: https",
                "X-Forwarded-Host: shop.example", "X-Forwarded-Port: 443"), FROM_PROXY)).isTrue();
        assertThat(origin.remoteAddress().getAddress().getHostAddress()).isEqualTo("198.51.100.7");
        assertThat(origin.scheme()).isEqualTo("https");
        assertThat(origin.host("internal:8080")).isEqualTo("shop.example");
        assertThat(origin.localAddress().getPort()).isEqualTo(443);
    }

    @Test
    void theClientIsTheLastAddressThatIsNotATrustedProxy() {
        ForwardedOrigin origin = new ForwardedOrigin(TRUSTED);
        // the client lied with a first address of its own; the proxies appended what they saw
        origin.apply(headers("X-Forwarded-For: 1.2.3.4, 198.51.100.7, 10.0.0.9"), FROM_PROXY);
        assertThat(origin.remoteAddress().getAddress().getHostAddress()).isEqualTo("198.51.100.7");
        assertThat(origin.host("internal:8080")).as("no host forwarded: the request's own").isEqualTo("internal:8080");
        origin.apply(headers("X-Forwarded-For: 1.2.3.4", "X-Forwarded-For: 2001:db8::3"), FROM_PROXY);
        assertThat(origin.remoteAddress().getAddress().getHostAddress()).isEqualTo("1.2.3.4");
    }

    @Test
    void forwardedWinsAndItsElementsGiveProtoAndHost() {
        ForwardedOrigin origin = new ForwardedOrigin(TRUSTED);
        assertThat(origin.apply(headers("Forwarded: for=192.0.2.60;proto=https;host=shop.example, for=\"[2001:db8::7]:4711\"",
                "X-Forwarded-For: 6.6.6.6"), FROM_PROXY)).isTrue();
        assertThat(origin.remoteAddress()).as("a port only where the element gives one").isEqualTo(new InetSocketAddress("192.0.2.60", 0));
        assertThat(origin.scheme()).isEqualTo("https");
        assertThat(origin.host("internal:8080")).isEqualTo("shop.example");

        origin.apply(headers("Forwarded: for=\"[2001:db8:cafe::17]:4711\";proto=http"), FROM_PROXY);
        assertThat(origin.remoteAddress()).isEqualTo(new InetSocketAddress("2001:db8:cafe::17", 4711));
    }

    @Test
    void anUnknownOrObfuscatedClientStopsAtTheLastAddressKnown() {
        ForwardedOrigin origin = new ForwardedOrigin(TRUSTED);
        origin.apply(headers("Forwarded: for=unknown, for=10.0.0.7"), FROM_PROXY);
        assertThat(origin.remoteAddress().getAddress().getHostAddress()).isEqualTo("10.0.0.7");
        origin.apply(headers("Forwarded: for=_hidden"), FROM_PROXY);
        assertThat(origin.remoteAddress()).isEqualTo(FROM_PROXY.remoteAddress());
    }

    @Test
    void fromAnyoneElseTheHeadersChangeNothing() {
        ForwardedOrigin origin = new ForwardedOrigin(TRUSTED);
        assertThat(origin.apply(headers("X-Forwarded-For: 198.51.100.7", "X-Forwarded-Proto: https"), FROM_ANYONE)).isFalse();
        assertThat(origin.apply(headers("Forwarded: for=198.51.100.7"), FROM_ANYONE)).isFalse();
        assertThat(new ForwardedOrigin(TrustedProxies.NONE).apply(headers("X-Forwarded-For: 1.1.1.1"), FROM_PROXY)).isFalse();
        assertThat(origin.apply(headers(), FROM_PROXY)).as("nothing forwarded").isFalse();
    }

    @Test
    void valuesThatAreNotAddressesOrSchemesAreIgnored() {
        ForwardedOrigin origin = new ForwardedOrigin(TRUSTED);
        origin.apply(headers("X-Forwarded-For: evil.example", "X-Forwarded-Proto: javascript", "X-Forwarded-Port: 99999"), FROM_PROXY);
        assertThat(origin.remoteAddress()).isEqualTo(FROM_PROXY.remoteAddress());
        assertThat(origin.scheme()).isEqualTo("http");
        assertThat(origin.localAddress()).isEqualTo(FROM_PROXY.localAddress());
    }
}
