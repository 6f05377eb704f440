package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** Connection persistence: RFC 9112 section 9.3. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KeepAliveTest {

    @TransportTest
    void http11ConnectionCarriesSeveralRequests(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            for (int i = 0; i < 5; i++) {
                RawResponse response = client.send(Requests.get("/")).read();
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.text()).isEqualTo("HelloWorld");
                assertThat(response.header("Content-Length")).isEqualTo("10");
                assertThat(response.header("Connection")).as("HTTP/1.1 persists by default").isNull();
                assertThat(response.header("Date")).isNotNull();
            }
            client.assertStillOpen(100);
        }
    }

    @TransportTest
    void clientConnectionCloseIsConfirmedAndTheServerCloses(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.getAndClose("/")).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("HelloWorld");
            assertThat(response.headers("Connection")).containsExactly("close");
            client.assertClosedByServer();
        }
    }

    @TransportTest
    void http10WithoutKeepAliveCloses(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send("GET / HTTP/1.0\r\n\r\n").read();
            assertThat(response.statusLine()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(response.text()).isEqualTo("HelloWorld");
            assertThat(response.header("Content-Length")).isEqualTo("10");
            assertThat(response.headers("Connection")).containsExactly("close");
            client.assertClosedByServer();
        }
    }

    @TransportTest
    void http10KeepAliveIsConfirmedAndTheConnectionStaysOpen(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            for (int i = 0; i < 2; i++) {
                RawResponse response = client.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").read();
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.text()).isEqualTo("HelloWorld");
                assertThat(response.headers("Connection")).containsExactly("keep-alive");
                client.assertStillOpen(150);
            }
            RawResponse last = client.send("GET / HTTP/1.0\r\n\r\n").read();
            assertThat(last.headers("Connection")).containsExactly("close");
            client.assertClosedByServer();
        }
    }

    @TransportTest
    void handlerConnectionCloseIsHonoured(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/close")).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("bye");
            assertThat(response.headers("Connection")).containsExactly("close");
            client.assertClosedByServer();
        }
    }

    @TransportTest
    void maxRequestsPerConnectionClosesAfterTheLastOne(Transport kind) throws Exception {
        var config = TestServers.config().maxRequestsPerConnection(3).build();
        try (Server server = TestServers.start(kind, config, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            for (int i = 1; i <= 2; i++) {
                RawResponse response = client.send(Requests.get("/")).read();
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.header("Connection")).as("response %d", i).isNull();
            }
            RawResponse third = client.send(Requests.get("/")).read();
            assertThat(third.status()).isEqualTo(200);
            assertThat(third.text()).isEqualTo("HelloWorld");
            assertThat(third.headers("Connection")).containsExactly("close");
            client.assertClosedByServer();
        }
    }

    @TransportTest
    void maxRequestsPerConnectionLeavesFurtherPipelinedRequestsUnanswered(Transport kind) throws Exception {
        var config = TestServers.config().maxRequestsPerConnection(2).build();
        try (Server server = TestServers.start(kind, config, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            client.send(Requests.get("/") + Requests.get("/text") + Requests.get("/"));
            RawResponse first = client.read();
            assertThat(first.text()).isEqualTo("HelloWorld");
            assertThat(first.header("Connection")).isNull();
            RawResponse second = client.read();
            assertThat(second.text()).isEqualTo("hello world");
            assertThat(second.headers("Connection")).containsExactly("close");
            client.assertClosedByServer();
        }
    }
}
