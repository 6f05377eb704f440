package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.server.config.Http2Config;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * The PROXY protocol (v1 and v2) on every transport, over plain HTTP and HTTPS (the header comes
 * before the TLS handshake, as HAProxy sends it): the handler sees the client the proxy reported;
 * a connection from an address that is not a trusted proxy, or without a valid header, is closed
 * unanswered. And forwarding headers, believed from trusted proxies only.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ProxyProtocolTest {
    private static final byte[] SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    private static Router whoami() {
        return Router.builder().get("/whoami", (req, res) -> res.send(req.remoteAddress().getAddress().getHostAddress() + ":"
                + req.remoteAddress().getPort() + " " + req.scheme() + " " + req.host())).build();
    }

    private static Server proxied(Transport kind) throws IOException {
        return TestServers.builder(kind, TestServers.config().build(), whoami()).proxyProtocol(true).trustedProxies("127.0.0.1").start();
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** A v2 PROXY header for 192.0.2.10:56324 to 198.51.100.1:443, saying the client used TLS. */
    private static byte[] v2WithTls() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(SIGNATURE);
        out.write(0x21);
        out.write(0x11);
        byte[] ssl = {0x20, 0, 5, 0x01, 0, 0, 0, 0}; // PP2_TYPE_SSL: client used TLS, verified
        out.write(0);
        out.write(12 + ssl.length);
        out.writeBytes(new byte[] {(byte) 192, 0, 2, 10, (byte) 198, 51, 100, 1, (byte) 0xDC, 0x04, 0x01, (byte) 0xBB});
        out.writeBytes(ssl);
        return out.toByteArray();
    }

    @TransportTest
    void aV1HeaderFromTheTrustedProxyNamesTheClient(Transport kind) throws Exception {
        try (Server server = proxied(kind);
             RawClient client = RawClient.connectWithPreface(server, "127.0.0.1", ascii("PROXY TCP4 198.51.100.7 10.0.0.1 4711 443\r\n"))) {
            String scheme = kind.tls() ? "https" : "http";
            assertThat(client.send(Requests.get("/whoami")).read().text()).isEqualTo("198.51.100.7:4711 " + scheme + " test");
            // the same connection goes on with the same client
            assertThat(client.send(Requests.get("/whoami")).read().text()).startsWith("198.51.100.7:4711");
        }
    }

    @TransportTest
    void aV2HeaderNamesTheClientAndTheTlsItUsedAtTheProxy(Transport kind) throws Exception {
        try (Server server = proxied(kind); RawClient client = RawClient.connectWithPreface(server, "127.0.0.1", v2WithTls())) {
            assertThat(client.send(Requests.get("/whoami")).read().text()).isEqualTo("192.0.2.10:56324 https test");
        }
    }

    @PlainHttpTransportTest
    void aHeaderAndTheRequestInOneWriteAreBothTaken(Transport kind) throws Exception {
        try (Server server = proxied(kind); RawClient client = RawClient.connectWithPreface(server, "127.0.0.1",
                ascii("PROXY TCP6 2001:db8::9 2001:db8::1 5000 80\r\n" + Requests.get("/whoami")))) {
            assertThat(client.read().text()).isEqualTo("2001:db8:0:0:0:0:0:9:5000 http test");
        }
    }

    @TransportTest
    void aConnectionFromAnAddressThatIsNotATrustedProxyIsClosed(Transport kind) throws Exception {
        try (Server server = proxied(kind)) {
            // 127.0.0.2 is loopback too, but not in the trusted list
            assertThatThrownBy(() -> {
                try (RawClient client = RawClient.connectWithPreface(server, "127.0.0.2", ascii("PROXY TCP4 198.51.100.7 10.0.0.1 4711 443\r\n"))) {
                    client.send(Requests.get("/whoami")).read();
                }
            }).isInstanceOf(IOException.class);
            TestServers.awaitLiveConnections(server, 0);
        }
    }

    @PlainHttpTransportTest
    void aConnectionWithoutAValidHeaderIsClosedUnanswered(Transport kind) throws Exception {
        try (Server server = proxied(kind); RawClient client = RawClient.connect(server)) {
            client.send(Requests.get("/whoami"));
            client.assertClosedByServer();
        }
    }

    @PlainHttpTransportTest
    void forwardingHeadersCountFromATrustedProxyOnly(Transport kind) throws Exception {
        String forwarded = "GET /whoami HTTP/1.1\r\nHost: internal\r\nX-Forwarded-For: 198.51.100.7\r\n"
                + "X-Forwarded-Proto: https\r\nX-Forwarded-Host: shop.example\r\n\r\n";
        try (Server trusting = TestServers.builder(kind, TestServers.config().build(), whoami()).trustedProxies("127.0.0.1").start();
             RawClient client = RawClient.connect(trusting)) {
            assertThat(client.send(forwarded).read().text()).isEqualTo("198.51.100.7:0 https shop.example");
        }
        try (Server elsewhere = TestServers.builder(kind, TestServers.config().build(), whoami()).trustedProxies("10.0.0.0/8").start();
             RawClient spoofer = RawClient.connect(elsewhere)) {
            assertThat(spoofer.send(forwarded).read().text()).as("a client that is no trusted proxy spoofs nothing")
                    .matches("127\\.0\\.0\\.1:\\d+ http internal");
        }
    }

    /** A trusted proxy that speaks HTTP/2 to this server (h2c) forwards the client in the same fields. */
    @PlainHttpTransportTest
    void forwardingFieldsOverHttp2CountFromATrustedProxyOnly(Transport kind) throws Exception {
        String[] request = H2Client.get("/whoami", "x-forwarded-for", "198.51.100.7", "x-forwarded-proto", "https",
                "x-forwarded-host", "shop.example");
        try (Server trusting = TestServers.builder(kind, TestServers.config().build(), whoami()).trustedProxies("127.0.0.1")
                     .http2(Http2Config.ENABLED.withClearText(true)).start();
             H2Client client = H2Client.connect(trusting.address().getPort())) {
            client.headers(1, true, request);
            assertThat(client.response(1).text()).isEqualTo("198.51.100.7:0 https shop.example");
        }
        try (Server elsewhere = TestServers.builder(kind, TestServers.config().build(), whoami()).trustedProxies("10.0.0.0/8")
                     .http2(Http2Config.ENABLED.withClearText(true)).start();
             H2Client spoofer = H2Client.connect(elsewhere.address().getPort())) {
            spoofer.headers(1, true, request);
            assertThat(spoofer.response(1).text()).as("a client that is no trusted proxy spoofs nothing")
                    .matches("127\\.0\\.0\\.1:\\d+ http localhost");
        }
    }

    /** HAProxy's PROXY header, then the HTTP/2 preface on the same connection: both steps of the chain take their bytes. */
    @PlainHttpTransportTest
    void aProxyHeaderBeforeTheHttp2PrefaceNamesTheClient(Transport kind) throws Exception {
        try (Server server = TestServers.builder(kind, TestServers.config().build(), whoami()).proxyProtocol(true)
                     .trustedProxies("127.0.0.1").http2(Http2Config.ENABLED.withClearText(true)).start();
             H2Client client = H2Client.connectAfter(server.address().getPort(),
                     ascii("PROXY TCP4 198.51.100.7 10.0.0.1 4711 80\r\n"))) {
            assertThat(client.get(1, "/whoami").text()).isEqualTo("198.51.100.7:4711 http localhost");
            assertThat(client.get(3, "/whoami").text()).startsWith("198.51.100.7:4711");
        }
    }
}
