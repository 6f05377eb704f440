package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** Pipelined requests (RFC 9112 section 9.3.2), HEAD, and heads split into single bytes. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PipeliningTest {

    @TransportTest
    void pipelinedRequestsAreAnsweredInOrder(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            client.send(Requests.get("/") + Requests.post("/echo", "ping-pong") + Requests.get("/text"));

            RawResponse first = client.read();
            assertThat(first.status()).isEqualTo(200);
            assertThat(first.text()).isEqualTo("HelloWorld");

            RawResponse second = client.read();
            assertThat(second.status()).isEqualTo(200);
            assertThat(second.text()).isEqualTo("ping-pong");
            assertThat(second.header("Content-Type")).isEqualTo("text/plain");
            assertThat(second.header("Content-Length")).isEqualTo("9");

            RawResponse third = client.read();
            assertThat(third.status()).isEqualTo(200);
            assertThat(third.text()).isEqualTo("hello world");
            assertThat(third.header("X-Test")).isEqualTo("1");
            client.assertStillOpen(100);
        }
    }

    @TransportTest
    void manyPipelinedRequestsLargerThanTheInputBuffer(Transport kind) throws Exception {
        int count = 400; // about 14 KB of requests: more than the engine's 8 KiB input buffer
        StringBuilder requests = new StringBuilder();
        for (int i = 0; i < count; i++) requests.append(i % 2 == 0 ? Requests.get("/") : Requests.post("/echo", "n" + i));
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            client.send(requests.toString());
            for (int i = 0; i < count; i++) {
                RawResponse response = client.read();
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.text()).as("response %d", i).isEqualTo(i % 2 == 0 ? "HelloWorld" : "n" + i);
            }
        }
    }

    @TransportTest
    void pipelinedConnectionCloseEndsTheConnectionThere(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            client.send(Requests.get("/") + Requests.getAndClose("/text") + Requests.get("/"));
            assertThat(client.read().text()).isEqualTo("HelloWorld");
            RawResponse second = client.read();
            assertThat(second.text()).isEqualTo("hello world");
            assertThat(second.saysClose()).isTrue();
            client.assertClosedByServer();
        }
    }

    @TransportTest
    void emptyLinesBeforeARequestAreIgnored(Transport kind) throws Exception {
        // RFC 9112 section 2.2: e.g. a client that ends a POST body with an extra CRLF
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            client.send(Requests.post("/echo", "x") + "\r\n" + Requests.get("/") + "\r\n\r\n" + Requests.get("/text"));
            assertThat(client.read().text()).isEqualTo("x");
            assertThat(client.read().text()).isEqualTo("HelloWorld");
            assertThat(client.read().text()).isEqualTo("hello world");
        }
    }

    @TransportTest
    void absoluteFormTargetIsRoutedByItsPath(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send("GET http://example.test/text HTTP/1.1\r\nHost: other\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("hello world");
        }
    }

    @TransportTest
    void headHasTheHeadersOfGetAndNoBody(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            // HEAD first, then GET in the same write: a body after the HEAD response would corrupt the GET's
            client.send(Requests.head("/text") + Requests.get("/text") + Requests.head("/"));
            RawResponse head = client.readForHead();
            RawResponse get = client.read();
            RawResponse headHello = client.readForHead();

            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Content-Length")).isEqualTo("11");
            assertThat(head.headerNames()).isEqualTo(get.headerNames());
            for (String name : get.headerNames()) {
                if (!name.equals("date")) assertThat(head.header(name)).as(name).isEqualTo(get.header(name));
            }
            assertThat(get.text()).isEqualTo("hello world");
            assertThat(headHello.header("Content-Length")).isEqualTo("10");
            assertThat(headHello.header("Content-Type")).isEqualTo("text/plain;charset=UTF-8");

            // nothing after the last HEAD response: the next one is a fresh response
            assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
        }
    }

    @TransportTest
    void headOfAStreamedBodyDeclaresItsLengthAndSendsNothing(Transport kind) throws Exception {
        var config = TestServers.config().responseBufferSize(256).build();
        try (Server server = TestServers.start(kind, config, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            client.send(Requests.head("/stream?5000") + Requests.get("/"));
            RawResponse head = client.readForHead();
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Transfer-Encoding")).isNull();
            assertThat(head.header("Content-Length")).isEqualTo("5000");
            assertThat(client.read().text()).isEqualTo("HelloWorld");
        }
    }

    @TransportTest
    void requestSentOneByteAtATime(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse hello = client.sendByteByByte(Requests.get("/"), 1).read();
            assertThat(hello.status()).isEqualTo(200);
            assertThat(hello.text()).isEqualTo("HelloWorld");

            RawResponse echo = client.sendByteByByte(Requests.post("/echo", "one byte at a time"), 1).read();
            assertThat(echo.status()).isEqualTo(200);
            assertThat(echo.text()).isEqualTo("one byte at a time");

            String chunked = "POST /echo HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nX-T: v\r\n\r\n";
            RawResponse chunkedEcho = client.sendByteByByte(chunked, 0).read();
            assertThat(chunkedEcho.status()).isEqualTo(200);
            assertThat(chunkedEcho.text()).isEqualTo("abcde");
        }
    }
}
