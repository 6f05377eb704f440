package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Tomcat's {@code maxHttpRequestHeaderSize} and {@code maxSwallowSize} on Petrel's connector: a head
 * over the size is refused with 431, one under it served; a request body the servlet left unread
 * is discarded to keep the connection when it is within the swallow size, and the connection is
 * closed when it is beyond.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HeadAndSwallowLimitsTest {
    /** Answers without reading the request body. */
    private static final class Ignoring extends HttpServlet {
        @Override
        protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
            res.setContentLength(2);
            res.getWriter().print("ok");
        }
    }

    private static EmbeddedTomcat start(String attribute, String value) throws IOException {
        Connector connector = new Connector(new PetrelHttp11Protocol());
        connector.setProperty(attribute, value);
        return EmbeddedTomcat.create(connector).servlet("/ignore", new Ignoring()).start();
    }

    @Test
    void aHeadOverMaxHttpRequestHeaderSizeGets431() throws Exception {
        try (EmbeddedTomcat tomcat = start("maxHttpRequestHeaderSize", "2048")) {
            assertThat(((PetrelProtocol) tomcat.connector().getProtocolHandler()).getMaxHttpRequestHeaderSize()).isEqualTo(2048);
            assertThat(exchange(tomcat.port(), get("a".repeat(1500)))).startsWith("HTTP/1.1 200");
            assertThat(exchange(tomcat.port(), get("a".repeat(2500)))).startsWith("HTTP/1.1 431");
        }
    }

    @Test
    void anUnreadBodyWithinMaxSwallowSizeIsDiscardedAndTheConnectionKept() throws Exception {
        try (EmbeddedTomcat tomcat = start("maxSwallowSize", "4096")) {
            String twoRequests = post(3000) + get("x");
            String answers = exchange(tomcat.port(), twoRequests);
            assertThat(answers.split("HTTP/1.1 200", -1)).as(answers).hasSize(3);
        }
    }

    @Test
    void anUnreadBodyBeyondMaxSwallowSizeClosesTheConnection() throws Exception {
        try (EmbeddedTomcat tomcat = start("maxSwallowSize", "4096")) {
            String twoRequests = post(5000) + get("x");
            String answers = exchange(tomcat.port(), twoRequests);
            assertThat(answers.split("HTTP/1.1 200", -1)).as("only the first answered: " + answers).hasSize(2);
        }
    }

    private static String get(String cookie) {
        return "GET /ignore HTTP/1.1\r\nHost: test\r\nCookie: c=" + cookie + "\r\n\r\n";
    }

    private static String post(int bodyLength) {
        return "POST /ignore HTTP/1.1\r\nHost: test\r\nContent-Length: " + bodyLength + "\r\n\r\n" + "b".repeat(bodyLength);
    }

    /** Sends {@code requests} on one connection, then reads what comes back until the server closes it or goes quiet. */
    private static String exchange(int port, String requests) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(requests.getBytes(StandardCharsets.US_ASCII));
            } catch (IOException e) {
                // the server may close before taking all: what it answered says the rest
            }
            ByteArrayOutputStream answers = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) answers.write(buffer, 0, n);
            } catch (java.net.SocketTimeoutException e) {
                // kept open and quiet: every answer is in
            } catch (java.net.SocketException e) {
                // reset after the answers it sent
            }
            return answers.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
