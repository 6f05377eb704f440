package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.server.Handler;
import dev.petrel.server.Server;
import dev.petrel.server.VirtualHosts;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.tls.Tools;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link VirtualHosts}: a site per host, by {@code Host} over HTTP/1.1 and {@code :authority} over HTTP/2. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class VirtualHostsTest {
    @TempDir
    static Path dir;

    private static Handler site(String name) {
        return (req, res) -> res.send(name + " " + req.path());
    }

    private static Handler app() {
        return VirtualHosts.builder()
                .host("shop.example.com", site("shop"))
                .host("*.example.com", site("any-example"))
                .host("*.eu.example.com", site("eu"))
                .host("[::1]", site("ipv6"))
                .fallback(site("main"))
                .build();
    }

    private static String get(RawClient client, String host) throws Exception {
        return client.send("GET /p HTTP/1.1\r\nHost: " + host + "\r\n\r\n").read().text();
    }

    @TransportTest
    void eachHostGetsItsSiteAndEveryOtherTheFallback(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            assertThat(get(client, "shop.example.com")).isEqualTo("shop /p");
            assertThat(get(client, "SHOP.Example.COM:8443")).as("case and port left out").isEqualTo("shop /p");
            assertThat(get(client, "shop.example.com.")).as("a trailing dot left out").isEqualTo("shop /p");
            assertThat(get(client, "a.example.com")).isEqualTo("any-example /p");
            assertThat(get(client, "a.b.example.com:80")).isEqualTo("any-example /p");
            assertThat(get(client, "x.eu.example.com")).as("the longer wildcard wins").isEqualTo("eu /p");
            assertThat(get(client, "example.com")).as("a wildcard is for subdomains only").isEqualTo("main /p");
            assertThat(get(client, "notexample.com")).isEqualTo("main /p");
            assertThat(get(client, "[::1]:8080")).isEqualTo("ipv6 /p");
            assertThat(get(client, "127.0.0.1")).isEqualTo("main /p");
            RawResponse absolute = client.send("GET http://shop.example.com/q HTTP/1.1\r\nHost: shop.example.com\r\n\r\n").read();
            assertThat(absolute.text()).isEqualTo("shop /q");
        }
    }

    @PlainHttpTransportTest
    void overHttp2TheAuthorityChooses(Transport kind) throws Exception {
        try (Server server = TestServers.builder(kind, TestServers.config().build(), app())
                .http2(Http2Config.ENABLED.withClearText(true)).start()) {
            String url = "http://127.0.0.1:" + server.address().getPort() + "/h2";
            // curl sends a Host header given over HTTP/2 as :authority
            Tools.Result shop = Tools.runAllowingFailure(dir, List.of("curl", "-sS", "--max-time", "10", "--http2-prior-knowledge",
                    "-H", "Host: shop.example.com", "-w", " %{http_version}", url), "");
            assertThat(shop.output()).isEqualTo("shop /h2 2");
            Tools.Result main = Tools.runAllowingFailure(dir, List.of("curl", "-sS", "--max-time", "10", "--http2-prior-knowledge",
                    "-w", " %{http_version}", url), "");
            assertThat(main.output()).isEqualTo("main /h2 2");
        }
    }

    @Test
    void badNamesAreRefusedWithTheReason() {
        Handler ok = (req, res) -> res.send("ok");
        assertThatThrownBy(() -> VirtualHosts.builder().host("a.example:80", ok)).hasMessageContaining("without a port");
        assertThatThrownBy(() -> VirtualHosts.builder().host("", ok)).hasMessageContaining("without a port");
        assertThatThrownBy(() -> VirtualHosts.builder().host("a.*.example", ok)).hasMessageContaining("*.name");
        assertThatThrownBy(() -> VirtualHosts.builder().host("A.example", ok).host("a.example.", ok)).hasMessageContaining("twice");
    }
}
