package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.ChunkedDecoder;
import dev.petrel.http.HttpLimits;
import dev.petrel.http.ParseStatus;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
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
 * output stream then writes the last chunk (Tomcat 11.0). The test holds that too, so that README's
 * comparison changes when Tomcat's behaviour does. Tomcat has no limit on a streamed body, so
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
            InputStream in = socket.getInputStream();
            out.write("POST /echo HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            chunk(out);
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            int headEnd = readHead(in, received);
            String head = received.toString(StandardCharsets.ISO_8859_1).substring(0, headEnd);
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
            String ending = readBody(in, received, headEnd + 4);
            if (connector.equals("tomcat-nio")) {
                assertThat(ending).as("Tomcat's NIO connector ends the echo of a cut upload whole; when it no longer does,"
                        + " README's comparison is out of date").startsWith("complete");
            } else {
                assertThat(ending).as(connector + ": a failed upload's echo must not end whole").doesNotStartWith("complete");
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

    /** Reads until the head is in; returns where it ends. */
    private static int readHead(InputStream in, ByteArrayOutputStream received) throws IOException {
        byte[] buffer = new byte[8192];
        while (true) {
            int n = in.read(buffer);
            if (n < 0) throw new AssertionError("the connection ended before a response head");
            received.write(buffer, 0, n);
            int end = received.toString(StandardCharsets.ISO_8859_1).indexOf("\r\n\r\n");
            if (end >= 0) return end;
        }
    }

    /** Reads the chunked body to its last chunk ("complete ...") or to the end of the connection. */
    private static String readBody(InputStream in, ByteArrayOutputStream received, int bodyStart) throws IOException {
        ChunkedDecoder decoder = new ChunkedDecoder(HttpLimits.DEFAULT);
        byte[] all = received.toByteArray();
        ByteBuffer pending = ByteBuffer.allocate(1 << 20).put(all, bodyStart, all.length - bodyStart).flip();
        ByteBuffer decoded = ByteBuffer.allocate(1 << 20);
        long body = 0;
        byte[] buffer = new byte[16 * 1024];
        while (true) {
            ParseStatus status;
            do {
                decoded.clear();
                status = decoder.decode(pending, decoded);
                body += decoded.position();
            } while (status == ParseStatus.NEED_MORE && decoded.position() > 0 && pending.hasRemaining());
            if (status == ParseStatus.COMPLETE) return "complete: the last chunk after " + body + " bytes";
            if (status == ParseStatus.ERROR) return "broken chunked body after " + body + " bytes";
            int n;
            try {
                n = in.read(buffer);
            } catch (SocketTimeoutException e) {
                throw new AssertionError("neither more of the response nor its end within 10 s, after " + body + " bytes");
            } catch (IOException e) {
                return "reset after " + body + " bytes";
            }
            if (n < 0) return "end of stream after " + body + " bytes, no last chunk";
            pending.compact().put(buffer, 0, n).flip();
        }
    }
}
