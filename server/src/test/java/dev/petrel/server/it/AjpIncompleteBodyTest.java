package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.IncompleteBodyException;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.testkit.AjpClient;
import dev.petrel.testkit.AjpClient.Request;
import dev.petrel.testkit.AjpClient.Response;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Over AJP, a body the front end ends before its declared length (an empty chunk, as mod_jk sends
 * when its client's upload broke off) or cuts by closing the connection is never a complete body:
 * the handler's read throws {@link IncompleteBodyException} and the front end gets 400 and a
 * connection it may not reuse. A front end too slow to send the body it declared gets 408, as a
 * client would. On every plain transport.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AjpIncompleteBodyTest {
    private static final String SECRET = "s3cret";

    private static Server start(Transport kind, BodySpy spy) throws Exception {
        return start(kind, TestServers.config().build(), spy);
    }

    private static Server start(Transport kind, dev.petrel.server.config.ServerConfig config, BodySpy spy) throws Exception {
        return TestServers.builder(kind, config, Router.builder().post("/upload", spy.handler()).build())
                .ajp(0, AjpConfig.withSecret(SECRET)).start();
    }

    @PlainHttpTransportTest
    void aFrontEndTooSlowWithTheBodyGets408(Transport kind) throws Exception {
        BodySpy spy = new BodySpy();
        var config = TestServers.config().from(dev.petrel.server.config.ServerConfig.DEFAULT
                .withMinRequestBodyRate(new dev.petrel.server.config.DataRate(1000, java.time.Duration.ofMillis(300)))).build();
        try (Server server = start(kind, config, spy); AjpClient front = AjpClient.connect(server.ajpAddress())) {
            Request request = AjpClient.request("POST", "/upload").secret(SECRET)
                    .truncatedBody("hello".getBytes(StandardCharsets.US_ASCII), 10);
            int sent = front.write(request);
            long start = System.nanoTime();
            assertThat(front.readPacket()[0]).as("a get-body-chunk, which the front end leaves unanswered").isEqualTo((byte) 6);

            Response response = front.readResponse(request, sent);
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(response.status()).isEqualTo(408);
            assertThat(response.text()).isEqualTo("Request Timeout: Request body too slow: below the minimum of 1000 bytes/s\n");
            assertThat(response.reuse()).isFalse();
            assertThat(took).as("ms until the answer: the rate's grace, not the 4 s read timeout").isLessThan(2_000);
            assertThat(spy.awaitFailure()).isInstanceOf(IncompleteBodyException.class);
        }
    }

    @PlainHttpTransportTest
    void anEmptyChunkBeforeTheDeclaredLengthCutsTheBodyShort(Transport kind) throws Exception {
        BodySpy spy = new BodySpy();
        try (Server server = start(kind, spy); AjpClient front = AjpClient.connect(server.ajpAddress())) {
            Response response = front.send(AjpClient.request("POST", "/upload").secret(SECRET)
                    .truncatedBody("hello".getBytes(StandardCharsets.US_ASCII), 10));

            Throwable seen = spy.awaitFailure();
            assertThat(seen).isInstanceOf(IncompleteBodyException.class)
                    .hasMessageContaining("the front end ended the body before its declared length");
            assertThat(spy.seen()).isEqualTo("hello");
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.text()).startsWith("Bad Request: Request body cut short");
            assertThat(response.reuse()).as("the connection may carry another request").isFalse();
            assertThat(front.closedByPeer()).isTrue();
        }
    }

    @PlainHttpTransportTest
    void aFrontEndThatClosesInsideADeclaredBodyCutsItShort(Transport kind) throws Exception {
        BodySpy spy = new BodySpy();
        byte[] first = new byte[5_000]; // the first chunk, unasked; small enough that the echo holds it uncommitted
        Arrays.fill(first, (byte) 'x');
        try (Server server = start(kind, spy); AjpClient front = AjpClient.connect(server.ajpAddress())) {
            Request request = AjpClient.request("POST", "/upload").secret(SECRET).truncatedBody(first, 20_000);
            int sent = front.write(request);
            front.shutdownOutput(); // gone after the first chunk

            Throwable seen = spy.awaitFailure();
            assertThat(seen).isInstanceOf(IncompleteBodyException.class)
                    .hasMessageContaining("the connection ended while a body chunk was due");
            assertThat(spy.seen()).hasSize(sent);
            Response response = front.readResponse(request, sent);
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.reuse()).isFalse();
        }
    }

    @PlainHttpTransportTest
    void aFrontEndThatClosesInsideABodyOfUnknownLengthCutsItShort(Transport kind) throws Exception {
        BodySpy spy = new BodySpy();
        try (Server server = start(kind, spy); AjpClient front = AjpClient.connect(server.ajpAddress())) {
            Request request = AjpClient.request("POST", "/upload").secret(SECRET).chunkedBody(new byte[100]);
            front.write(request); // the body of unknown length waits to be asked for
            front.shutdownOutput();

            Throwable seen = spy.awaitFailure();
            assertThat(seen).isInstanceOf(IncompleteBodyException.class).hasMessageContaining("cut short");
            assertThat(spy.seen()).isEmpty();
            Response response = front.readResponse(request, 0);
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.reuse()).isFalse();
        }
    }
}
