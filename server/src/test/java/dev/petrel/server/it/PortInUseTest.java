package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.server.Server;
import java.net.BindException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PortInUseTest {

    @TransportTest
    void secondServerOnTheSamePortFailsWithBindException(Transport kind) throws Exception {
        try (Server first = TestServers.start(kind, TestApp.handler())) {
            int port = first.address().getPort();
            assertThatThrownBy(() -> Server.builder().host("127.0.0.1").port(port).transport(kind.kind())
                    .handler(TestApp.handler()).start())
                    .isInstanceOf(BindException.class);
            // the first server is unaffected
            try (RawClient client = RawClient.connect(first)) {
                assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
            }
        }
    }

    /** On {@code nio} the loop lets the server channel go at its next select: stopping waits for it. */
    @TransportTest
    void portIsFreeAgainAsSoonAsTheServerHasStopped(Transport kind) throws Exception {
        int port;
        try (Server first = TestServers.start(kind, TestApp.handler())) {
            port = first.address().getPort();
        }
        try (Server second = Server.builder().host("127.0.0.1").port(port).transport(kind.kind())
                .handler(TestApp.handler()).start();
             RawClient client = RawClient.connect(second)) {
            assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
        }
    }
}
