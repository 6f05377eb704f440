package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.testkit.Nginx;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Petrel behind a real nginx (Debian's {@code nginx}, a private process on loopback): as a TCP
 * proxy with {@code proxy_protocol on} the handler sees the client's address and port from the
 * PROXY v1 line; as an HTTP proxy, from the {@code Forwarded} header nginx sets (which wins over
 * its {@code X-Forwarded-For}). The client connects from 127.0.0.2, nginx from 127.0.0.1, the one
 * address Petrel trusts. On every plain transport.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NginxFrontEndTest {
    private static final String CLIENT = "127.0.0.2";

    private static void assumeNginx(Nginx.Mode mode) {
        Optional<String> missing = Nginx.unavailableReason(mode);
        assumeTrue(missing.isEmpty(), () -> missing.orElse(""));
    }

    private static Router whoami() {
        return Router.builder().get("/whoami", (req, res) -> res.send(req.scheme() + "://"
                + req.remoteAddress().getAddress().getHostAddress() + ":" + req.remoteAddress().getPort())).build();
    }

    private static String askThrough(Nginx nginx) throws Exception {
        try (RawClient client = RawClient.connectFrom(CLIENT, nginx.port())) {
            RawResponse response = client.send(Requests.get("/whoami")).read();
            assertThat(response.status()).as(nginx.output()).isEqualTo(200);
            return response.text() + " from " + CLIENT + ":" + client.localPort();
        }
    }

    @PlainHttpTransportTest
    void proxyProtocolNamesTheClientAndItsPort(Transport kind) throws Exception {
        assumeNginx(Nginx.Mode.STREAM);
        try (Server server = TestServers.builder(kind, TestServers.config().build(), whoami()).proxyProtocol(true)
                .trustedProxies("127.0.0.1").start();
             Nginx nginx = Nginx.start(Nginx.Mode.STREAM, "127.0.0.1", server.address().getPort())) {
            assertThat(askThrough(nginx)).matches("http://(127\\.0\\.0\\.2:\\d+) from \\1");
            assertThat(askThrough(nginx)).as("a second connection, a second header").matches("http://(127\\.0\\.0\\.2:\\d+) from \\1");
        }
    }

    @PlainHttpTransportTest
    void forwardedHeaderNamesTheClientAndItsPort(Transport kind) throws Exception {
        assumeNginx(Nginx.Mode.HTTP);
        try (Server server = TestServers.builder(kind, TestServers.config().build(), whoami()).trustedProxies("127.0.0.1").start();
             Nginx nginx = Nginx.start(Nginx.Mode.HTTP, "127.0.0.1", server.address().getPort())) {
            assertThat(askThrough(nginx)).matches("http://(127\\.0\\.0\\.2:\\d+) from \\1");
        }
    }

    @PlainHttpTransportTest
    void withoutTrustTheHeadersChangeNothing(Transport kind) throws Exception {
        assumeNginx(Nginx.Mode.HTTP);
        try (Server server = TestServers.builder(kind, TestServers.config().build(), whoami()).start();
             Nginx nginx = Nginx.start(Nginx.Mode.HTTP, "127.0.0.1", server.address().getPort())) {
            assertThat(askThrough(nginx)).as("nginx's own address, the headers ignored").startsWith("http://127.0.0.1:");
        }
    }
}
