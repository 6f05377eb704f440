package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.config.Connector;
import dev.petrel.server.Handler;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.config.TlsConfigException;
import dev.petrel.server.config.TransportKind;
import dev.petrel.testkit.AjpClient;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A server with several connectors: two HTTP ports, HTTPS and AJP at once, on every transport,
 * sharing one set of threads and event loops; and HTTPS never offering by ALPN a protocol it
 * cannot speak.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConnectorsTest {
    private static final String SECRET = "s3cret";

    private static Router app() {
        return Router.builder().get("/", (req, res) -> res.send("HelloWorld " + req.scheme() + " " + req.localAddress().getPort())).build();
    }

    @ParameterizedTest
    @EnumSource(TransportKind.class)
    void everyConnectorServesTheSameHandler(TransportKind transport) throws Exception {
        try (Server server = Server.builder().host("127.0.0.1").transport(transport).handler(app())
                .connector(Connector.http(0))
                .connector(Connector.http(0))
                .connector(Connector.https(0, TestCertificate.get().serverConfig()))
                .connector(Connector.ajp(0, AjpConfig.withSecret(SECRET)))
                .start()) {
            List<InetSocketAddress> addresses = server.addresses();
            assertThat(addresses).hasSize(4);
            assertThat(server.connectors()).extracting(Connector::kind)
                    .containsExactly(Connector.Kind.HTTP, Connector.Kind.HTTP, Connector.Kind.HTTPS, Connector.Kind.AJP);
            for (int i = 0; i < 2; i++) {
                int port = addresses.get(i).getPort();
                try (RawClient client = RawClient.connect(port)) {
                    assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld http " + port);
                }
            }
            assertThat(server.address()).isEqualTo(addresses.get(0));
            assertThat(server.httpsAddress()).isEqualTo(addresses.get(2));
            assertThat(server.ajpAddress()).isEqualTo(addresses.get(3));
            try (AjpClient front = AjpClient.connect(server.ajpAddress())) {
                assertThat(front.send(AjpClient.request("GET", "/").secret(SECRET)).text()).startsWith("HelloWorld");
            }
        }
    }

    @Test
    void connectorsShareOneSetOfEventLoops() throws Exception {
        long before = loopThreads();
        try (Server server = Server.builder().host("127.0.0.1").transport(TransportKind.NIO).eventLoops(2).handler(nonBlockingApp())
                .connector(Connector.http(0)).connector(Connector.http(0)).connector(Connector.http(0))
                .connector(Connector.ajp(0, AjpConfig.withSecret(SECRET))).start()) {
            assertThat(loopThreads() - before).as("event loops for four connectors").isEqualTo(2);
            for (InetSocketAddress address : server.addresses().subList(0, 3)) {
                try (RawClient client = RawClient.connect(address.getPort())) {
                    assertThat(client.send(Requests.get("/")).read().status()).isEqualTo(200);
                }
            }
        }
        TestServers.awaitCondition("the loops stopped with the server", java.time.Duration.ofSeconds(5), () -> loopThreads() == before);
    }

    private static long loopThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && t.getName().startsWith("petrel-nio-loop-")).count();
    }

    /** A handler that never blocks: the loops are then platform threads, which {@link #loopThreads} can count. */
    private static Handler nonBlockingApp() {
        return Handler.nonBlocking(app());
    }

    @Test
    void connectorsKeepTheirOwnAddressesAndOptions() throws Exception {
        Connector behindProxy = Connector.http(0).host("127.0.0.1").proxyProtocol(true).trustedProxies("127.0.0.1/32");
        assertThat(behindProxy.toString()).isEqualTo("http 127.0.0.1:0 with PROXY protocol trusting 127.0.0.1/32");
        try (Server server = Server.builder().handler(app()).connector(Connector.http(0).host("127.0.0.1")).connector(behindProxy).start()) {
            try (RawClient plain = RawClient.connect(server.addresses().get(0).getPort())) {
                assertThat(plain.send(Requests.get("/")).read().status()).isEqualTo(200);
            }
            try (RawClient noHeader = RawClient.connect(server.addresses().get(1).getPort())) {
                noHeader.send(Requests.get("/"));
                noHeader.assertClosedByServer(); // that connector wants a PROXY header first
            }
        }
        assertThatThrownBy(() -> Server.builder().handler(app()).connector(Connector.http(0).proxyProtocol(true)).start())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("needs the addresses of its trusted proxies");
        assertThatThrownBy(() -> Connector.http(0).trustedProxies("proxy.example.com")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Server.builder().handler(app()).plainHttp(false).start()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void alpnOffersOnlyWhatTheServerSpeaks() throws Exception {
        var config = TestCertificate.get().serverConfig().toBuilder().applicationProtocols("h2", "http/1.1").build();
        assertThat(negotiated(Http2Config.DEFAULT, config)).as("h2 is served, so chosen first").isEqualTo("h2");
        assertThat(negotiated(Http2Config.DISABLED, config)).as("h2 is not served, so not chosen").isEqualTo("http/1.1");
        var onlyH2 = TestCertificate.get().serverConfig().toBuilder().applicationProtocols("h2").build();
        assertThatThrownBy(() -> Server.builder().handler(app()).http2(Http2Config.DISABLED).connector(Connector.https(0, onlyH2)).start())
                .isInstanceOf(TlsConfigException.class).hasMessageContaining("none of the ALPN protocols [h2] is served here");
    }

    /** The protocol a client offering h2 and http/1.1 gets from a server with {@code http2} and {@code tls}. */
    private static String negotiated(Http2Config http2, dev.petrel.server.config.TlsConfig tls) throws Exception {
        try (Server server = Server.builder().host("127.0.0.1").handler(app()).http2(http2).connector(Connector.https(0, tls)).start();
             SSLSocket socket = (SSLSocket) TestCertificate.get().clientContext().getSocketFactory()
                     .createSocket("127.0.0.1", server.httpsAddress().getPort())) {
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"h2", "http/1.1"});
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            return socket.getApplicationProtocol();
        }
    }
}
