package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Servlet non-blocking reads ({@link ReadListener}) on Petrel's connector, beside Tomcat's NIO:
 * a body that arrives in pieces with pauses is read whole, and an exchange whose async timeout
 * ends it while the reader still waits for body bytes answers, leaves its connection (whose
 * remaining bytes nobody can read any more) and takes nothing from later requests.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NonBlockingReadTest {
    /** Reads the body as it comes, then answers its length and SHA-256. */
    private static final class EchoDigest extends HttpServlet {
        @Override
        protected void doPost(HttpServletRequest req, HttpServletResponse res) throws IOException {
            AsyncContext async = req.startAsync();
            async.setTimeout(Integer.parseInt(req.getParameter("timeout")));
            async.addListener(new AsyncListener() {
                @Override
                public void onTimeout(AsyncEvent event) throws IOException {
                    HttpServletResponse r = (HttpServletResponse) event.getAsyncContext().getResponse();
                    r.setStatus(504);
                    r.getWriter().print("timed out waiting for the body");
                    event.getAsyncContext().complete();
                }

                @Override
                public void onComplete(AsyncEvent event) {}

                @Override
                public void onError(AsyncEvent event) {}

                @Override
                public void onStartAsync(AsyncEvent event) {}
            });
            ServletInputStream in = req.getInputStream();
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            in.setReadListener(new ReadListener() {
                private final byte[] chunk = new byte[4096];

                @Override
                public void onDataAvailable() throws IOException {
                    while (in.isReady()) {
                        int n = in.read(chunk);
                        if (n < 0) return;
                        body.write(chunk, 0, n);
                    }
                }

                @Override
                public void onAllDataRead() throws IOException {
                    async.getResponse().getWriter().print(body.size() + " " + ServletApplicationTest.sha256(
                            new java.io.ByteArrayInputStream(body.toByteArray())));
                    async.complete();
                }

                @Override
                public void onError(Throwable t) {
                    async.complete();
                }
            });
        }
    }

    private static EmbeddedTomcat start(String transport) throws IOException {
        return EmbeddedTomcat.create(transport.equals("tomcat-nio") ? null : transport)
                .servlet("/echo", new EchoDigest())
                .servlet("/hello", new HttpServlet() {
                    @Override
                    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
                        res.getWriter().print("hello");
                    }
                }).start();
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio", "tomcat-nio"})
    void bodyArrivingInPiecesIsReadWhole(String transport) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport); Socket s = connect(tomcat.port())) {
            OutputStream out = s.getOutputStream();
            out.write(("POST /echo?timeout=20000 HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            ByteArrayOutputStream sent = new ByteArrayOutputStream();
            for (int piece = 0; piece < 4; piece++) {
                byte[] data = ("piece " + piece + " ").repeat(500).getBytes(StandardCharsets.US_ASCII);
                sent.write(data);
                out.write((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(data);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                Thread.sleep(150); // the reader runs out of data and waits between pieces
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String response = readResponse(s.getInputStream());
            assertThat(response).startsWith("HTTP/1.1 200").endsWith(sent.size() + " "
                    + ServletApplicationTest.sha256(new java.io.ByteArrayInputStream(sent.toByteArray())));
            // the connection goes on: the next request on it is answered
            out.write("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readResponse(s.getInputStream())).startsWith("HTTP/1.1 200").endsWith("hello");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio", "tomcat-nio"})
    void asyncTimeoutWhileTheReaderWaitsAnswersAndLaterRequestsAreUntouched(String transport) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport)) {
            for (int round = 0; round < 3; round++) { // the processor that timed out serves the next requests
                try (Socket s = connect(tomcat.port())) {
                    OutputStream out = s.getOutputStream();
                    out.write(("POST /echo?timeout=300 HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n0123456789")
                            .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    String response = readResponse(s.getInputStream());
                    assertThat(response).startsWith("HTTP/1.1 504").endsWith("timed out waiting for the body");
                }
                try (Socket s = connect(tomcat.port())) {
                    s.getOutputStream().write("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    assertThat(readResponse(s.getInputStream())).startsWith("HTTP/1.1 200").endsWith("hello");
                }
            }
        }
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        s.setSoTimeout(15_000);
        return s;
    }

    /** One response, head and body (by Content-Length or chunked), as text with the body de-chunked. */
    private static String readResponse(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) throw new IOException("connection closed in the head: " + head);
            head.append((char) b);
        }
        String lower = head.toString().toLowerCase(java.util.Locale.ROOT);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (lower.contains("transfer-encoding: chunked")) {
            while (true) {
                String size = line(in);
                int n = Integer.parseInt(size.split(";")[0].trim(), 16);
                if (n == 0) {
                    while (!line(in).isEmpty()) { /* trailers */ }
                    break;
                }
                body.write(in.readNBytes(n));
                line(in);
            }
        } else {
            int at = lower.indexOf("content-length:");
            int n = Integer.parseInt(lower.substring(at + 15, lower.indexOf("\r\n", at)).trim());
            body.write(in.readNBytes(n));
        }
        return head + body.toString(StandardCharsets.UTF_8);
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) throw new IOException("connection closed in a chunk line");
            if (b != '\r') line.append((char) b);
        }
        return line.toString();
    }
}
