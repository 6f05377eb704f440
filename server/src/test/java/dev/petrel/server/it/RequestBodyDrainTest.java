package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** Request bodies a handler leaves unread: drained up to maxDrainBytes, else the connection closes. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RequestBodyDrainTest {
    private static final int MAX_DRAIN = 1000;

    private static Server start(Transport kind) throws Exception {
        return TestServers.start(kind, TestServers.config().maxDrainBytes(MAX_DRAIN).build(), TestApp.handler());
    }

    @TransportTest
    void smallUnreadBodyIsDrainedAndTheConnectionReused(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.post("/ignore", Requests.pattern(MAX_DRAIN))).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("ignored");
            assertThat(response.header("Connection")).isNull();
            // the unread body must not be taken for the next request
            assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
        }
    }

    @TransportTest
    void unreadBodyStillArrivingAfterTheAnswerIsDrainedAsItComes(Transport kind) throws Exception {
        String body = Requests.pattern(MAX_DRAIN);
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            // the answer goes out after the first 10 bytes; the drain then waits for the other 990
            client.send("POST /ignore HTTP/1.1\r\nHost: test\r\nContent-Length: " + MAX_DRAIN + "\r\n\r\n"
                    + body.substring(0, 10));
            RawResponse response = client.read();
            assertThat(response.text()).isEqualTo("ignored");
            assertThat(response.header("Connection")).isNull();
            client.send(body.substring(10, 500));
            client.send(body.substring(500) + Requests.get("/"));
            assertThat(client.read().text()).isEqualTo("HelloWorld");
        }
    }

    @TransportTest
    void smallUnreadChunkedBodyIsDrainedAndTheConnectionReused(Transport kind) throws Exception {
        String request = "POST /ignore HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\n5\r\nworld\r\n0\r\n\r\n";
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            client.send(request + Requests.get("/"));
            RawResponse first = client.read();
            assertThat(first.text()).isEqualTo("ignored");
            assertThat(first.header("Connection")).isNull();
            assertThat(client.read().text()).isEqualTo("HelloWorld");
        }
    }

    @TransportTest
    void unreadBodyOverTheDrainLimitClosesTheConnection(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.post("/ignore", Requests.pattern(MAX_DRAIN + 1)) + Requests.get("/")).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("ignored");
            assertThat(response.headers("Connection")).containsExactly("close");
            client.assertClosedByServer();
        }
    }

    @TransportTest
    void unreadBodyOverTheDrainLimitNotYetSentClosesTheConnection(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            // the head promises 100 000 bytes; only a few arrive before the answer
            client.send("POST /ignore HTTP/1.1\r\nHost: test\r\nContent-Length: 100000\r\n\r\nabc");
            RawResponse response = client.read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.headers("Connection")).containsExactly("close");
            client.assertClosedByServer();
        }
    }

    @TransportTest
    void unreadChunkedBodyOverTheDrainLimitClosesAfterTheResponse(Transport kind) throws Exception {
        // a chunked body's size is unknown when the response is committed; the drain finds out afterwards
        StringBuilder request = new StringBuilder("POST /ignore HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int i = 0; i < 3; i++) request.append("3e8\r\n").append(Requests.pattern(1000)).append("\r\n");
        request.append("0\r\n\r\n");
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(request + Requests.get("/")).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("ignored");
            client.assertClosedByServer();
        }
    }
}
