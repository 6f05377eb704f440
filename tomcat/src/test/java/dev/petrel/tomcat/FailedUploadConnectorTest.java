package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.testkit.HttpBodyEnding;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A servlet that copies a chunked upload to its response, the usual way (try-with-resources over
 * the request's input and the response's output), meets an upload that fails once the echo has
 * begun: cut short by the client, or past the connector's {@code maxBodySize}. On Petrel's
 * connector, on every transport, its client sees the response fail. Tomcat's own NIO connector
 * runs the same servlet beside it, a differential test, and there the client gets a whole 200:
 * Catalina answers the failed read by setting a 400 it can no longer send, and closing the
 * output stream then writes the last chunk (Tomcat 11.0). The test holds that too, so that the
 * comparison in docs/operations.md changes when Tomcat's behaviour does. Tomcat has no limit on a streamed body, so
 * "too large" is Petrel's alone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailedUploadConnectorTest {
    private static final int PIECE = 32 * 1024; // past Catalina's 8 KiB response buffer: the echo commits
    private static final long MAX_BODY = 64 * 1024;

    /** The echo of the issue, as a servlet. */
    private static final class Echo extends HttpServlet {
        @Override
        protected void doPost(HttpServletRequest req, HttpServletResponse res) throws IOException {
            res.setContentType("application/octet-stream");
            try (InputStream in = req.getInputStream(); OutputStream out = res.getOutputStream()) {
                in.transferTo(out);
            }
        }
    }

    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({"tomcat-nio, CUT_SHORT", "blocking, CUT_SHORT", "virtual, CUT_SHORT", "nio, CUT_SHORT",
            "blocking, TOO_LARGE", "virtual, TOO_LARGE", "nio, TOO_LARGE"})
    void theClientSeesTheEchoFail(String connector, String failure) throws Exception {
        try (EmbeddedTomcat tomcat = EmbeddedTomcat.create(connector(connector)).servlet("/echo", new Echo()).start();
             Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", tomcat.port()), 5000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            out.write("POST /echo HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            chunk(out);
            String head = readHead(in);
            assertThat(head).as("the echo has begun, as a success").startsWith("HTTP/1.1 200").containsIgnoringCase("chunked");

            if (failure.equals("CUT_SHORT")) {
                socket.shutdownOutput();
            } else {
                try {
                    for (int i = 0; i < 4; i++) chunk(out); // past the limit
                } catch (IOException e) {
                    // the connector may cut the connection meanwhile: what the client reads says the rest
                }
            }
            HttpBodyEnding ending = HttpBodyEnding.read(in, true, -1);
            if (connector.equals("tomcat-nio")) {
                assertThat(ending.complete()).as("Tomcat's NIO connector ends the echo of a cut upload whole; when it no longer"
                        + " does, the comparison in docs/operations.md is out of date: " + ending.how()).isTrue();
            } else {
                assertThat(ending.complete()).as(connector + ": a failed upload's echo must not end whole: " + ending.how()).isFalse();
            }
        }
    }

    private static Connector connector(String name) {
        if (name.equals("tomcat-nio")) return new Connector("HTTP/1.1");
        Connector connector = new Connector(new PetrelHttp11Protocol());
        connector.setProperty("transport", name);
        connector.setProperty("maxBodySize", Long.toString(MAX_BODY));
        return connector;
    }

    private static void chunk(OutputStream out) throws IOException {
        out.write((Integer.toHexString(PIECE) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(new byte[PIECE]);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Reads the response head, to its empty line, and no further. */
    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) throw new AssertionError("the connection ended before a response head: " + head);
            head.append((char) b);
        }
        return head.toString();
    }
}
