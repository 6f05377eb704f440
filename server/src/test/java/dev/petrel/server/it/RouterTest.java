package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Handler;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The {@link Router} as a client sees it. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RouterTest {
    private static Handler app() {
        return Router.builder()
                .get("/hello", (req, res) -> res.send("hi"))
                .get("/item", (req, res) -> res.send("item"))
                .put("/item", (req, res) -> res.send("put " + new String(req.bodyBytes(), java.nio.charset.StandardCharsets.UTF_8)))
                .get("/files/*", (req, res) -> res.send("files " + req.path()))
                .get("/files/special/*", (req, res) -> res.send("special " + req.path()))
                .build();
    }

    @TransportTest
    void templatesCaptureWhatTheHandlerReadsAndNothingOutlivesItsRequest(Transport kind) throws Exception {
        Handler app = TestApp.routes()
                .get("/exact", (req, res) -> res.send("exact " + req.pathParameters().asMap()))
                .build();
        try (Server server = TestServers.start(kind, app); RawClient client = RawClient.connect(server)) {
            assertThat(client.send(Requests.get("/users/42")).read().text()).isEqualTo("user 42");
            assertThat(client.send(Requests.get("/users/me")).read().text()).isEqualTo("me");
            assertThat(client.send(Requests.get("/users/7/posts/hello%20world")).read().text()).isEqualTo("user 7 post hello world");
            assertThat(client.send(Requests.get("/tree/a/b/c.txt")).read().text()).isEqualTo("tree [a/b/c.txt]");
            assertThat(client.send(Requests.get("/tree/")).read().text()).isEqualTo("tree []");
            // the same connection, an exact route: the last request's captures are gone
            assertThat(client.send(Requests.get("/exact")).read().text()).isEqualTo("exact {}");

            RawResponse notANumber = client.send(Requests.get("/users/abc")).read();
            assertThat(notANumber.status()).isEqualTo(400);
            assertThat(notANumber.text()).isEqualTo("Bad Request: path parameter id is not valid\n").doesNotContain("abc");
            assertThat(client.send(Requests.get("/users/")).read().status()).isEqualTo(404);
            RawResponse delete = client.send("DELETE /users/42 HTTP/1.1\r\nHost: test\r\n\r\n").read();
            assertThat(delete.status()).isEqualTo(405);
            assertThat(delete.header("Allow")).isEqualTo("GET, HEAD, OPTIONS");
            assertThat(client.send(Requests.get("/users/1")).read().text()).as("the connection is kept").isEqualTo("user 1");
        }
    }

    @TransportTest
    void unknownPathIs404(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/nope")).read();
            assertThat(response.status()).isEqualTo(404);
            assertThat(response.text()).isEqualTo("Not Found\n");
            assertThat(response.header("Connection")).isNull();
            assertThat(client.send(Requests.get("/hello")).read().text()).isEqualTo("hi");
        }
    }

    @TransportTest
    void wrongMethodIs405WithAllow(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            RawResponse post = client.send(Requests.post("/hello", "data")).read();
            assertThat(post.status()).isEqualTo(405);
            assertThat(post.header("Allow")).isEqualTo("GET, HEAD, OPTIONS");
            assertThat(post.text()).isEqualTo("Method Not Allowed\n");

            RawResponse delete = client.send("DELETE /item HTTP/1.1\r\nHost: test\r\n\r\n").read();
            assertThat(delete.status()).isEqualTo(405);
            assertThat(delete.header("Allow")).isEqualTo("GET, HEAD, OPTIONS, PUT");

            RawResponse put = client.send("PUT /item HTTP/1.1\r\nHost: test\r\nContent-Length: 3\r\n\r\nabc").read();
            assertThat(put.status()).isEqualTo(200);
            assertThat(put.text()).isEqualTo("put abc");
        }
    }

    @TransportTest
    void optionsOnARouteAnswersItsMethods(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            RawResponse options = client.send("OPTIONS /item HTTP/1.1\r\nHost: test\r\n\r\n").read();
            assertThat(options.status()).isEqualTo(204);
            assertThat(options.header("Allow")).isEqualTo("GET, HEAD, OPTIONS, PUT");
            assertThat(options.header("Content-Length")).isNull();
            assertThat(options.header("Connection")).isNull();
            assertThat(client.send(Requests.get("/hello")).read().text()).as("the connection goes on").isEqualTo("hi");
        }
    }

    @TransportTest
    void optionsAsteriskAnswersEveryMethodServed(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            RawResponse options = client.send("OPTIONS * HTTP/1.1\r\nHost: test\r\n\r\n").read();
            assertThat(options.status()).isEqualTo(204);
            assertThat(options.header("Allow")).isEqualTo("GET, HEAD, OPTIONS, PUT");
        }
    }

    @TransportTest
    void anUnknownMethodIs501AndAKnownOneNotRoutedIs405(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            RawResponse brew = client.send("BREW /hello HTTP/1.1\r\nHost: test\r\n\r\n").read();
            assertThat(brew.status()).isEqualTo(501);
            assertThat(brew.text()).isEqualTo("Not Implemented: method BREW is not served here\n");
            RawResponse elsewhere = client.send("BREW /nope HTTP/1.1\r\nHost: test\r\n\r\n").read();
            assertThat(elsewhere.status()).as("unknown on a path no route matches too").isEqualTo(501);
            RawResponse patch = client.send("PATCH /hello HTTP/1.1\r\nHost: test\r\nContent-Length: 0\r\n\r\n").read();
            assertThat(patch.status()).isEqualTo(405);
            assertThat(client.send(Requests.get("/hello")).read().text()).as("the connection goes on").isEqualTo("hi");
        }
    }

    @TransportTest
    void aMethodRoutedSomewhereIsRecognizedEverywhere(Transport kind) throws Exception {
        Handler app = Router.builder().get("/a", (req, res) -> res.send("a"))
                .route("BREW", "/pot", (req, res) -> res.send("coffee")).build();
        try (Server server = TestServers.start(kind, app); RawClient client = RawClient.connect(server)) {
            assertThat(client.send("BREW /pot HTTP/1.1\r\nHost: test\r\n\r\n").read().text()).isEqualTo("coffee");
            RawResponse elsewhere = client.send("BREW /a HTTP/1.1\r\nHost: test\r\n\r\n").read();
            assertThat(elsewhere.status()).isEqualTo(405);
            assertThat(elsewhere.header("Allow")).isEqualTo("GET, HEAD, OPTIONS");
        }
    }

    @TransportTest
    void headFallsBackToGet(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            client.send(Requests.head("/hello") + Requests.get("/hello"));
            RawResponse head = client.readForHead();
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Content-Length")).isEqualTo("2");
            assertThat(head.header("Content-Type")).isEqualTo("text/plain;charset=UTF-8");
            assertThat(client.read().text()).isEqualTo("hi");
        }
    }

    @TransportTest
    void prefixRoutesMatchLongestFirstOnTheDecodedPath(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            assertThat(client.send(Requests.get("/files/a/b.txt")).read().text()).isEqualTo("files /files/a/b.txt");
            assertThat(client.send(Requests.get("/files/special/x")).read().text()).isEqualTo("special /files/special/x");
            assertThat(client.send(Requests.get("/hel%6Co")).read().text()).isEqualTo("hi");
            assertThat(client.send(Requests.get("/files/a%20b")).read().text()).isEqualTo("files /files/a b");
            assertThat(client.send(Requests.get("/hello?x=1")).read().text()).isEqualTo("hi");
        }
    }

    /**
     * Where a handler ran, as it tells the client: the nio event loop, or a virtual thread of its
     * own. By name, since a loop is itself a virtual thread when the handler may block.
     */
    private static void reportThread(dev.petrel.server.Request request, dev.petrel.server.Response response) throws java.io.IOException {
        Thread current = Thread.currentThread();
        response.send(current.getName().startsWith("petrel-nio-loop-") ? "loop" : current.isVirtual() ? "virtual" : "platform");
    }

    private static Handler memoryAndDisk() {
        return Router.builder()
                .get("/memory", Handler.nonBlocking(RouterTest::reportThread))
                .get("/disk", RouterTest::reportThread)
                .fallback(Handler.nonBlocking(RouterTest::reportThread))
                .build();
    }

    /** A request whose route may block never runs on the event loop, whatever ran before it on the connection. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = Transport.class, names = {"NIO", "NIO_TLS"})
    void onNioABlockingRouteAlwaysRunsOnAVirtualThread(Transport kind) throws Exception {
        Handler app = memoryAndDisk();
        assertThat(app.mayBlock()).isTrue();
        try (Server server = TestServers.start(kind, app); RawClient client = RawClient.connect(server)) {
            for (int i = 0; i < 3; i++) { // alternating on one connection
                assertThat(client.send(Requests.get("/memory")).read().status()).isEqualTo(200);
                assertThat(client.send(Requests.get("/disk")).read().text()).isEqualTo("virtual");
            }
            assertThat(client.send(Requests.get("/di%73k")).read().text()).isEqualTo("virtual");
            assertThat(client.send(Requests.post("/disk", "x")).read().status()).isEqualTo(405);
        }
    }

    /**
     * A request for a non-blocking route that arrives while its connection waits on the event loop
     * runs there, even though other routes of the router may block. (One that arrives while a
     * worker is still finishing the previous exchange is served by that worker, which is as cheap.)
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"/memory", "/elsewhere"})
    void onNioANonBlockingRouteRunsOnTheEventLoop(String path) throws Exception {
        try (Server server = TestServers.start(Transport.NIO, memoryAndDisk())) {
            for (int i = 0; i < 3; i++) {
                try (RawClient client = RawClient.connect(server)) {
                    assertThat(client.send(Requests.get(path)).read().text()).isEqualTo("loop");
                }
            }
        }
    }

    /** What decides whether HTTP/2 announces SETTINGS_ENABLE_CONNECT_PROTOCOL (RFC 8441). */
    @Test
    void aRouterServesWebSocketsWhenARouteOrItsFallbackDoes() {
        Handler page = (request, response) -> response.send("x");
        assertThat(Router.builder().get("/", page).build().servesWebSockets()).isFalse();
        Router withSocket = Router.builder().get("/", page).websocket("/ws/*", socket -> { }).build();
        assertThat(withSocket.servesWebSockets()).isTrue();
        assertThat(Router.builder().fallback(withSocket).build().servesWebSockets()).isTrue();
        assertThat(Handler.nonBlocking(withSocket).servesWebSockets()).as("a wrapper keeps it").isTrue();
        assertThat(page.servesWebSockets()).isFalse();
    }
}
