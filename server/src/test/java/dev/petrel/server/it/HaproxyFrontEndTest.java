package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.testkit.Haproxy;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/**
 * Petrel behind a real HAProxy (Debian's {@code haproxy}, a private process on loopback): with
 * {@code send-proxy} and {@code send-proxy-v2} the handler sees the client's address and port
 * from the PROXY header; with {@code option forwardfor} its address from {@code X-Forwarded-For}.
 * The client connects from 127.0.0.2, HAProxy from 127.0.0.1, the one address Petrel trusts, so the
 * two cannot be confused. On every plain transport.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HaproxyFrontEndTest {
    private static final String CLIENT = "127.0.0.2";

    @BeforeAll
    static void haproxyIsHere() {
        Optional<String> missing = Haproxy.unavailableReason();
        assumeTrue(missing.isEmpty(), () -> missing.orElse(""));
    }

    private static Router whoami() {
        return Router.builder().get("/whoami", (req, res) -> res.send(req.remoteAddress().getAddress().getHostAddress() + ":"
                + req.remoteAddress().getPort())).build();
    }

    private static String askThrough(Haproxy proxy) throws Exception {
        try (RawClient client = RawClient.connectFrom(CLIENT, proxy.port())) {
            RawResponse response = client.send(Requests.get("/whoami")).read();
            assertThat(response.status()).as(proxy.output()).isEqualTo(200);
            return response.text() + " from " + CLIENT + ":" + client.localPort();
        }
    }

    @PlainHttpTransportTest
    void sendProxyV1NamesTheClientAndItsPort(Transport kind) throws Exception {
        try (Server server = TestServers.builder(kind, TestServers.config().build(), whoami()).proxyProtocol(true)
                .trustedProxies("127.0.0.1").start();
             Haproxy proxy = Haproxy.builder().backend("127.0.0.1", server.address().getPort()).sendProxy(Haproxy.ProxyHeader.V1).start()) {
            String seen = askThrough(proxy);
            assertThat(seen).matches("(127\\.0\\.0\\.2:\\d+) from \\1");
        }
    }

    @PlainHttpTransportTest
    void sendProxyV2NamesTheClientAndItsPort(Transport kind) throws Exception {
        try (Server server = TestServers.builder(kind, TestServers.config().build(), whoami()).proxyProtocol(true)
                .trustedProxies("127.0.0.1").start();
             Haproxy proxy = Haproxy.builder().backend("127.0.0.1", server.address().getPort()).sendProxy(Haproxy.ProxyHeader.V2).start()) {
            String seen = askThrough(proxy);
            assertThat(seen).matches("(127\\.0\\.0\\.2:\\d+) from \\1");
            // many requests over HAProxy's connections: each connection's header is read once
            for (int i = 0; i < 20; i++) assertThat(askThrough(proxy)).startsWith("127.0.0.2:");
        }
    }

    @PlainHttpTransportTest
    void forwardForNamesTheClient(Transport kind) throws Exception {
        try (Server server = TestServers.builder(kind, TestServers.config().build(), whoami()).trustedProxies("127.0.0.1").start();
             Haproxy proxy = Haproxy.builder().backend("127.0.0.1", server.address().getPort()).forwardFor(true).start()) {
            assertThat(askThrough(proxy)).startsWith("127.0.0.2:0 from 127.0.0.2:");
        }
    }

    @PlainHttpTransportTest
    void withoutTrustForwardForChangesNothing(Transport kind) throws Exception {
        try (Server server = TestServers.builder(kind, TestServers.config().build(), whoami()).start();
             Haproxy proxy = Haproxy.builder().backend("127.0.0.1", server.address().getPort()).forwardFor(true).start()) {
            assertThat(askThrough(proxy)).as("HAProxy's own address, the header ignored").startsWith("127.0.0.1:");
        }
    }
}
