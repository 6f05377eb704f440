package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.IncompleteBodyException;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A request body that ends before its framing says it is complete is never a complete body: the
 * handler's read throws {@link IncompleteBodyException}, and the client, whose answer had not left
 * yet, gets 400 with {@code Connection: close}, even from a handler that closes its output stream
 * on the way out (try-with-resources would otherwise commit what it had echoed as a 200). On every
 * transport, over TLS ended both with close_notify and by a bare TCP FIN.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TruncatedBodyTest {
    private static final String CHUNKED = "POST /upload HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n";

    /** A body cut at some point of its framing: what was sent, what the handler read, and where the framing stood. */
    record Cut(String name, String request, String readByHandler, String where) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final List<Cut> CUTS = List.of(
            new Cut("inside chunk data", CHUNKED + "5\r\nhel", "hel", "chunk data"),
            new Cut("after chunk data, before its CRLF", CHUNKED + "5\r\nhello", "hello", "the CRLF after chunk data"),
            new Cut("between chunks", CHUNKED + "5\r\nhello\r\n", "hello", "the next chunk-size line"),
            new Cut("inside a chunk-size line", CHUNKED + "5\r\nhello\r\n1", "hello", "the rest of a chunk-size line"),
            new Cut("inside a chunk extension", CHUNKED + "5;name=va", "", "the rest of a chunk-size line"),
            new Cut("inside the trailers", CHUNKED + "5\r\nhello\r\n0\r\nX-Checksum: 1", "hello", "the trailer section"),
            new Cut("after the trailers, before the last CRLF", CHUNKED + "5\r\nhello\r\n0\r\nX-Checksum: 1\r\n", "hello",
                    "the trailer section"),
            new Cut("before the declared Content-Length",
                    "POST /upload HTTP/1.1\r\nHost: test\r\nContent-Length: 10\r\n\r\nhello", "hello",
                    "the rest of the declared Content-Length"));

    /** How the client ends its side: over TLS with close_notify, or a bare TCP FIN (the same on plain connections). */
    enum Ending { HALF_CLOSE, TCP_FIN_WITHOUT_CLOSE_NOTIFY }

    static Stream<Arguments> cases() {
        return Stream.of(Transport.values()).flatMap(kind -> CUTS.stream().flatMap(cut -> Stream.of(Ending.values())
                .filter(ending -> kind.tls() || ending == Ending.HALF_CLOSE)
                .map(ending -> Arguments.of(kind, cut, ending))));
    }

    @ParameterizedTest(name = "{0}: {1}, {2}")
    @MethodSource("cases")
    void theHandlerSeesTheBodyCutShortAndTheClientGets400(Transport kind, Cut cut, Ending ending) throws Exception {
        BodySpy spy = new BodySpy();
        try (Server server = TestServers.start(kind, Router.builder().post("/upload", spy.handler()).build());
             RawClient client = RawClient.connect(server)) {
            client.send(cut.request);
            if (ending == Ending.HALF_CLOSE) client.shutdownOutput();
            else client.shutdownTcpOutput();
            boolean answerable = ending != Ending.HALF_CLOSE || TestServers.answersAfterCloseNotify(kind);

            Throwable seen = spy.awaitFailure();
            assertThat(seen).as("what the handler's body read threw").isInstanceOf(IncompleteBodyException.class)
                    .hasMessageContaining("cut short").hasMessageContaining(cut.where);
            assertThat(((IncompleteBodyException) seen).status()).isEqualTo(400);
            assertThat(spy.seen()).as("the bytes the handler read before the failure").isEqualTo(cut.readByHandler);
            if (!answerable) {
                client.assertClosedByServer(); // the engine answered the close_notify with its own: nothing more to say
                return;
            }

            RawResponse response = client.read();
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.headers("Connection")).containsExactly("close");
            assertThat(response.text()).startsWith("Bad Request: Request body cut short");
            client.assertClosedByServer();
        }
    }

    @TransportTest
    void aHandlerThatSwallowsTheFailureCannotAnswerWithASuccess(Transport kind) throws Exception {
        Router app = Router.builder().post("/swallow", (request, response) -> {
            try {
                request.body().readAllBytes();
            } catch (IOException ignored) {
                // a careless handler: it goes on as if the body were whole
            }
            response.send("stored");
        }).build();
        try (Server server = TestServers.start(kind, app); RawClient client = RawClient.connect(server)) {
            client.send(CHUNKED.replace("/upload", "/swallow") + "5\r\nhel");
            endBody(client, kind);
            RawResponse response = client.read();
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.text()).doesNotContain("stored");
            client.assertClosedByServer();
        }
    }

    @TransportTest
    void aHandlerMayStillAnswerTheFailureWithAnErrorOfItsOwn(Transport kind) throws Exception {
        Router app = Router.builder().post("/careful", (request, response) -> {
            try {
                request.body().readAllBytes();
                response.send("stored");
            } catch (IncompleteBodyException e) {
                response.status(422).send("upload incomplete, nothing stored");
            }
        }).build();
        try (Server server = TestServers.start(kind, app); RawClient client = RawClient.connect(server)) {
            client.send(CHUNKED.replace("/upload", "/careful") + "5\r\nhel");
            endBody(client, kind);
            RawResponse response = client.read();
            assertThat(response.status()).isEqualTo(422);
            assertThat(response.text()).isEqualTo("upload incomplete, nothing stored");
            assertThat(response.headers("Connection")).containsExactly("close");
            client.assertClosedByServer();
        }
    }

    @TransportTest
    void everyReadAfterTheFailureFailsAlike(Transport kind) throws Exception {
        Router app = Router.builder().post("/twice", (request, response) -> {
            String first = failureOf(request);
            String second = failureOf(request);
            response.status(400).send(first + "|" + second);
        }).build();
        try (Server server = TestServers.start(kind, app); RawClient client = RawClient.connect(server)) {
            client.send(CHUNKED.replace("/upload", "/twice") + "5\r\nhel");
            endBody(client, kind);
            RawResponse response = client.read();
            assertThat(response.text()).isEqualTo("IncompleteBodyException|IncompleteBodyException");
        }
    }

    /**
     * Ends the client's side with the body cut short, in the way the server can still answer: a
     * TLS half-close, or a TCP one where the engine closes on close_notify
     * ({@link TestServers#answersAfterCloseNotify}); these tests are about the handler, not the ending.
     */
    private static void endBody(RawClient client, Transport kind) throws IOException {
        if (TestServers.answersAfterCloseNotify(kind)) client.shutdownOutput();
        else client.shutdownTcpOutput();
    }

    private static String failureOf(dev.petrel.server.Request request) {
        try {
            request.body().readAllBytes();
            return "complete";
        } catch (IOException e) {
            return e.getClass().getSimpleName();
        }
    }
}
