package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.testkit.AjpClient;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tomcat with {@link PetrelAjpProtocol}, configured by {@code <Connector>} attributes as in
 * {@code server.xml}: the front end's request reaches the servlet with the client's address and
 * scheme; a wrong secret and an attribute outside {@code allowedRequestAttributesPattern} get 403;
 * and without a secret the connector refuses to start unless told {@code secretRequired="false"}.
 * (A real httpd with mod_jk and mod_proxy_ajp in front is the server module's AjpFrontEndTest.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AjpConnectorTest {
    private static EmbeddedTomcat start(String transport) throws IOException {
        Connector connector = new Connector(new PetrelAjpProtocol());
        connector.setProperty("transport", transport);
        connector.setProperty("secret", "s3cret");
        connector.setProperty("allowedRequestAttributesPattern", "MY_.*");
        return EmbeddedTomcat.create(connector).servlet("/who", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
                res.setContentType("text/plain");
                res.getWriter().print(req.getRemoteAddr() + " " + req.getScheme() + " " + req.isSecure() + " "
                        + req.getServerName() + ":" + req.getServerPort() + " " + req.getAttribute("MY_ATTR"));
            }
        }).start();
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void frontEndRequestReachesTheServlet(String transport) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport);
             AjpClient client = AjpClient.connect(new InetSocketAddress("127.0.0.1", tomcat.port()))) {
            AjpClient.Response response = client.send(AjpClient.request("GET", "/who").secret("s3cret")
                    .attribute("MY_ATTR", "hello"));
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("203.0.113.7 http false www.example.com:80 hello");
            AjpClient.Response again = client.send(AjpClient.request("GET", "/who").secret("s3cret"));
            assertThat(again.text()).as("the same front-end connection, reused").endsWith(" null");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void wrongSecretAndUnknownAttributeAreRefused(String transport) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport)) {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", tomcat.port());
            try (AjpClient client = AjpClient.connect(address)) {
                assertThat(client.send(AjpClient.request("GET", "/who").secret("guess")).status()).isEqualTo(403);
            }
            try (AjpClient client = AjpClient.connect(address)) {
                assertThat(client.send(AjpClient.request("GET", "/who").secret("s3cret")
                        .attribute("javax.servlet.include.request_uri", "/WEB-INF/web.xml")).status()).isEqualTo(403);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio"})
    void noSecretRefusesToStartUnlessToldSo(String transport) throws Exception {
        Connector refused = new Connector(new PetrelAjpProtocol());
        refused.setProperty("transport", transport);
        try (EmbeddedTomcat tomcat = EmbeddedTomcat.create(refused).start()) {
            // as Tomcat's own AJP connectors: the connector fails (logged), the rest of Tomcat runs
            assertThat(tomcat.connector().getState()).isEqualTo(LifecycleState.FAILED);
            assertThat(tomcat.port()).isEqualTo(-1);
        }
        Connector open = new Connector(new PetrelAjpProtocol());
        open.setProperty("transport", transport);
        open.setProperty("secretRequired", "false");
        try (EmbeddedTomcat tomcat = EmbeddedTomcat.create(open).start();
             AjpClient client = AjpClient.connect(new InetSocketAddress("127.0.0.1", tomcat.port()))) {
            assertThat(client.send(AjpClient.request("GET", "/date.jsp")).status()).isEqualTo(200);
        }
    }
}
