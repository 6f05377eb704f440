package dev.petrel.example.hello;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.tomcat.PetrelHttp11Protocol;
import java.util.concurrent.TimeUnit;
import org.apache.coyote.ProtocolHandler;
import org.apache.coyote.http11.Http11NioProtocol;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/**
 * The application's WebSocket endpoints in Boot's test harness, through Petrel's connector on
 * each transport and through Tomcat's own NIO connector ({@code petrel.enabled=false}) for
 * reference: a STOMP client subscribes and is greeted, a raw WebSocket client gets its echo.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WebSocketApplicationTest {
    /** 8000 characters: within Tomcat's default 8 KiB message buffer, larger than one small read. */
    private static final String LONG_TEXT = "0123456789".repeat(800);

    @Nested
    @SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {"server.address=127.0.0.1", "petrel.transport=blocking"})
    class Blocking extends Checks {
        Blocking() {
            super("blocking");
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {"server.address=127.0.0.1", "petrel.transport=virtual"})
    class Virtual extends Checks {
        Virtual() {
            super("virtual");
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {"server.address=127.0.0.1", "petrel.transport=nio"})
    class Nio extends Checks {
        Nio() {
            super("nio");
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {"server.address=127.0.0.1", "petrel.enabled=false"})
    class TomcatNio extends Checks {
        TomcatNio() {
            super(null);
        }
    }

    /** The same checks on every connector; {@code transport} is Petrel's, or null for Tomcat's own connector. */
    abstract static class Checks {
        private final String transport;

        @Autowired
        private WebServerApplicationContext context;

        Checks(String transport) {
            this.transport = transport;
        }

        private String url(String path) {
            return "ws://127.0.0.1:" + context.getWebServer().getPort() + path;
        }

        @Test
        void servedByTheConnectorAsked() {
            ProtocolHandler protocol = ((TomcatWebServer) context.getWebServer()).getTomcat().getConnector().getProtocolHandler();
            if (transport == null) {
                assertThat(protocol).isInstanceOf(Http11NioProtocol.class);
            } else {
                assertThat(protocol).isInstanceOfSatisfying(PetrelHttp11Protocol.class,
                        petrel -> assertThat(petrel.getTransport()).isEqualTo(transport));
            }
        }

        @Test
        void stompClientIsGreetedOnTheTopic() throws Exception {
            assertThat(WebSocketProbe.greetOverStomp(url("/stomp"), "Petrel")).isEqualTo("Hello, Petrel!");
        }

        @Test
        void rawHandlerEchoesEachTextMessage() throws Exception {
            assertThat(WebSocketProbe.echo(url("/ws/echo"), "hello", LONG_TEXT, "ünïcödé ✓"))
                    .containsExactly("hello", LONG_TEXT, "ünïcödé ✓");
        }
    }
}
