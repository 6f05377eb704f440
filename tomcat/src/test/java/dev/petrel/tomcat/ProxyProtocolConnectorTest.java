package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tomcat with {@link PetrelHttp11Protocol} behind a proxy that sends the PROXY protocol, as
 * HAProxy's {@code send-proxy-v2} does: {@code proxyProtocol="true" trustedProxies="127.0.0.1"}
 * on the {@code <Connector>}. The servlet sees the client the header names; a connection
 * without the header is not served.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProxyProtocolConnectorTest {
    private static final byte[] SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
    private static final String REQUEST = "GET /who HTTP/1.1\r\nHost: app.example\r\nConnection: close\r\n\r\n";

    private static EmbeddedTomcat start(String transport) throws IOException {
        Connector connector = new Connector(new PetrelHttp11Protocol());
        connector.setProperty("transport", transport);
        connector.setProperty("proxyProtocol", "true");
        connector.setProperty("trustedProxies", "10.0.0.0/8, 127.0.0.1");
        return EmbeddedTomcat.create(connector).servlet("/who", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
                res.setContentType("text/plain");
                res.getWriter().print(req.getRemoteAddr() + ":" + req.getRemotePort());
            }
        }).start();
    }

    /** A PROXY v2 header for TCP over IPv4 from 203.0.113.7:40000 to 127.0.0.1:{@code port}. */
    private static byte[] proxyV2(int port) {
        ByteBuffer header = ByteBuffer.allocate(SIGNATURE.length + 4 + 12);
        header.put(SIGNATURE).put((byte) 0x21).put((byte) 0x11).putShort((short) 12);
        header.put(new byte[] {(byte) 203, 0, 113, 7}).put(new byte[] {127, 0, 0, 1});
        header.putShort((short) 40000).putShort((short) port);
        return header.array();
    }

    private static String exchange(int port, byte[] preface) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(preface);
            socket.getOutputStream().write(REQUEST.getBytes(StandardCharsets.US_ASCII));
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            try {
                socket.getInputStream().transferTo(answer);
            } catch (IOException reset) {
                // a connection refused without an answer may end in a reset
            }
            return answer.toString(StandardCharsets.ISO_8859_1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void servletSeesTheClientTheProxyHeaderNames(String transport) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport)) {
            String answer = exchange(tomcat.port(), proxyV2(tomcat.port()));
            assertThat(answer).startsWith("HTTP/1.1 200 ").endsWith("\r\n\r\n203.0.113.7:40000");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void connectionWithoutTheHeaderIsNotServed(String transport) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport)) {
            assertThat(exchange(tomcat.port(), new byte[0])).doesNotContain("203.0.113.7").doesNotStartWith("HTTP/1.1 200");
        }
    }
}
