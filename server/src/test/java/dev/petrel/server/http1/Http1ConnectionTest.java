package dev.petrel.server.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.DateCache;
import dev.petrel.server.Handler;
import dev.petrel.server.HttpStatusException;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.engine.connection.ScriptedEndpoint;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The protocol engine driven in memory, with no socket: exact bytes out for bytes in, with the
 * input handed over one byte per read as well as in larger pieces.
 */
class Http1ConnectionTest {
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("1994-11-06T08:49:37Z"));
    private static final String DATE = "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n";
    private static final Handler HELLO = (request, response) ->
            response.contentType("text/plain;charset=UTF-8").send("HelloWorld".getBytes(StandardCharsets.US_ASCII));
    private static final Handler ECHO = (request, response) -> response.send(request.bodyBytes());

    private static ScriptedEndpoint serve(Handler handler, String input, int bytesPerRead, ScriptedEndpoint.End end) {
        ScriptedEndpoint endpoint = new ScriptedEndpoint(input, bytesPerRead, end);
        new Http1Connection(endpoint, handler, ServerConfig.DEFAULT, new DateCache(CLOCK)).serve();
        return endpoint;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 7, 8192})
    void answersHelloWorldWithExactBytes(int bytesPerRead) {
        ScriptedEndpoint endpoint = serve(HELLO, "GET / HTTP/1.1\r\nHost: a\r\n\r\n", bytesPerRead, ScriptedEndpoint.End.EOF);

        assertThat(endpoint.output()).isEqualTo("HTTP/1.1 200 OK\r\n"
                + "Content-Type: text/plain;charset=UTF-8\r\n"
                + DATE
                + "Content-Length: 10\r\n"
                + "\r\n"
                + "HelloWorld");
        assertThat(endpoint.closed()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 8192})
    void answersPipelinedRequestsInOrder(int bytesPerRead) {
        String requests = "POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nfirst"
                + "POST /b HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nsec\r\n3;x=y\r\nond\r\n0\r\nT: v\r\n\r\n"
                + "POST /c HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nConnection: close\r\n\r\nthird";

        ScriptedEndpoint endpoint = serve(ECHO, requests, bytesPerRead, ScriptedEndpoint.End.TIMEOUT);

        String base = "HTTP/1.1 200 OK\r\n" + DATE;
        assertThat(endpoint.output()).isEqualTo(
                base + "Content-Length: 5\r\n\r\nfirst"
                + base + "Content-Length: 6\r\n\r\nsecond"
                + base + "Content-Length: 5\r\nConnection: close\r\n\r\nthird");
        assertThat(endpoint.unread()).isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8192})
    void rejectsAMalformedHeadWithItsStatusAndCloses(int bytesPerRead) {
        ScriptedEndpoint endpoint = serve(HELLO, "GET / HTTP/1.1\r\nHost : a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
                bytesPerRead, ScriptedEndpoint.End.EOF);

        assertThat(endpoint.output())
                .startsWith("HTTP/1.1 400 Bad Request\r\n")
                .contains("Connection: close\r\n")
                .endsWith("Bad Request: Whitespace between a field name and its colon\n");
        assertThat(endpoint.output()).doesNotContain("HelloWorld");
        assertThat(endpoint.closed()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8192})
    void sendsContinueOnlyWhenTheHandlerReadsTheBody(int bytesPerRead) {
        String request = "POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi";

        ScriptedEndpoint reading = serve(ECHO, request, bytesPerRead, ScriptedEndpoint.End.EOF);
        ScriptedEndpoint ignoring = serve(HELLO, request, bytesPerRead, ScriptedEndpoint.End.EOF);

        assertThat(reading.output()).startsWith("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n").endsWith("\r\n\r\nhi");
        assertThat(ignoring.output()).startsWith("HTTP/1.1 200 OK\r\n").doesNotContain("100 Continue")
                .contains("Connection: close\r\n");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8192})
    void answersHeadWithTheLengthOfGetAndNoBody(int bytesPerRead) {
        ScriptedEndpoint endpoint = serve(HELLO, "HEAD / HTTP/1.1\r\nHost: a\r\n\r\n", bytesPerRead, ScriptedEndpoint.End.EOF);

        assertThat(endpoint.output()).isEqualTo("HTTP/1.1 200 OK\r\n"
                + "Content-Type: text/plain;charset=UTF-8\r\n" + DATE + "Content-Length: 10\r\n\r\n");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8192})
    void turnsAHandlerFailureIntoA500WithoutDetailsAndKeepsTheConnection(int bytesPerRead) {
        Handler failing = (request, response) -> {
            if (request.path().equals("/fail")) throw new IllegalStateException("secret detail");
            HELLO.handle(request, response);
        };
        ScriptedEndpoint endpoint = serve(failing, "GET /fail HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
                bytesPerRead, ScriptedEndpoint.End.EOF);

        assertThat(endpoint.output())
                .startsWith("HTTP/1.1 500 Internal Server Error\r\n")
                .doesNotContain("secret detail")
                .doesNotContain("IllegalStateException")
                .endsWith("HelloWorld");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8192})
    void answersAnInvalidChunkedBodyWith400AndCloses(int bytesPerRead) {
        String request = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"
                + "GET / HTTP/1.1\r\nHost: a\r\n\r\n";

        ScriptedEndpoint endpoint = serve(ECHO, request, bytesPerRead, ScriptedEndpoint.End.EOF);

        assertThat(endpoint.output()).startsWith("HTTP/1.1 400 Bad Request\r\n").contains("Connection: close\r\n")
                .endsWith("Bad Request: Invalid chunk size\n");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8192})
    void answersAHandlersStatusException(int bytesPerRead) {
        Handler teapot = (request, response) -> {
            throw new HttpStatusException(404, "No such thing");
        };
        ScriptedEndpoint endpoint = serve(teapot, "GET / HTTP/1.1\r\nHost: a\r\n\r\n", bytesPerRead, ScriptedEndpoint.End.EOF);

        assertThat(endpoint.output()).startsWith("HTTP/1.1 404 Not Found\r\n").endsWith("Not Found: No such thing\n");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8192})
    void cutsAHeadThatStopsHalfwayWith408(int bytesPerRead) {
        ScriptedEndpoint endpoint = serve(HELLO, "GET / HTTP/1.1\r\nHos", bytesPerRead, ScriptedEndpoint.End.TIMEOUT);

        assertThat(endpoint.output()).startsWith("HTTP/1.1 408 Request Timeout\r\n").contains("Connection: close\r\n");
        assertThat(endpoint.closed()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8192})
    void closesAnIdleConnectionQuietly(int bytesPerRead) {
        ScriptedEndpoint endpoint = serve(HELLO, "GET / HTTP/1.1\r\nHost: a\r\n\r\n", bytesPerRead, ScriptedEndpoint.End.TIMEOUT);

        assertThat(endpoint.output()).startsWith("HTTP/1.1 200 OK\r\n").endsWith("HelloWorld");
        assertThat(endpoint.closed()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8192})
    void streamsALongBodyChunkedToHttp11AndCloseDelimitedToHttp10(int bytesPerRead) {
        byte[] big = new byte[ServerConfig.DEFAULT.responseBufferSize() + 100];
        java.util.Arrays.fill(big, (byte) 'x');
        Handler streaming = (request, response) -> {
            response.body().write(big);
            response.body().write("end".getBytes(StandardCharsets.US_ASCII));
        };

        String http11 = serve(streaming, "GET / HTTP/1.1\r\nHost: a\r\n\r\n", bytesPerRead, ScriptedEndpoint.End.EOF).output();
        String http10 = serve(streaming, "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", bytesPerRead,
                ScriptedEndpoint.End.EOF).output();

        String xs = "x".repeat(big.length);
        assertThat(http11).contains("Transfer-Encoding: chunked\r\n").doesNotContain("Content-Length")
                .endsWith("\r\n3\r\nend\r\n0\r\n\r\n"); // how the long write is cut into chunks is the engine's choice
        assertThat(dechunk(http11.substring(http11.indexOf("\r\n\r\n") + 4))).isEqualTo(xs + "end");
        assertThat(http10).doesNotContain("Transfer-Encoding").doesNotContain("Content-Length")
                .contains("Connection: close\r\n").endsWith("\r\n\r\n" + xs + "end");
    }

    /** The payload of a chunked body without extensions or trailers, checking each chunk's framing. */
    private static String dechunk(String body) {
        StringBuilder payload = new StringBuilder();
        int at = 0;
        while (true) {
            int lineEnd = body.indexOf("\r\n", at);
            int size = Integer.parseInt(body.substring(at, lineEnd), 16);
            if (size == 0) {
                assertThat(body.substring(lineEnd)).isEqualTo("\r\n\r\n");
                return payload.toString();
            }
            payload.append(body, lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size;
            assertThat(body.substring(at, at + 2)).isEqualTo("\r\n");
            at += 2;
        }
    }
}
