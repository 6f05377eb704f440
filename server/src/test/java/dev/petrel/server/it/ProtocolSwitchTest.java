package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Handler;
import dev.petrel.server.Server;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.ProtocolConnection;
import dev.petrel.server.engine.exchange.ExchangeResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * The hand-over after {@code 101 (Switching Protocols)}: an HTTP/1.1 connection gives its endpoint,
 * with the bytes it had read past the request, to another protocol, on every transport and over
 * TLS. The protocol here echoes what it reads; WebSocket and the Tomcat connector's upgrades use
 * the same hook ({@link dev.petrel.server.engine.connection.Upgrade}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProtocolSwitchTest {
    private static final Handler SWITCHING = (request, response) -> {
        if (!"echo".equals(request.headers().first("Upgrade"))) {
            response.send("no upgrade asked");
            return;
        }
        if (request.hasBody()) request.body().readAllBytes(); // a switch comes after the whole request
        response.header("Upgrade", "echo").header("Connection", "upgrade");
        ((ExchangeResponse) response).switchProtocols(Echo::new);
    };

    private static String upgradeRequest(String body) {
        String framing = body == null ? "" : "Content-Length: " + body.length() + "\r\n";
        return "POST /chat HTTP/1.1\r\nHost: test\r\nUpgrade: echo\r\nConnection: upgrade\r\n" + framing + "\r\n"
                + (body == null ? "" : body);
    }

    @TransportTest
    void theNewProtocolReadsFirstWhatTheClientSentRightAfterTheRequest(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, SWITCHING);
             RawClient client = RawClient.connect(server)) {
            // a keep-alive request first: the switch may come on any request of a connection
            assertThat(client.send("GET / HTTP/1.1\r\nHost: test\r\n\r\n").read().text()).isEqualTo("no upgrade asked");
            client.send(upgradeRequest("request body") + "early bytes;");
            RawResponse head = client.readHead();
            assertThat(head.status()).isEqualTo(101);
            assertThat(head.header("Upgrade")).isEqualTo("echo");
            assertThat(new String(client.input().readNBytes(12), StandardCharsets.ISO_8859_1)).isEqualTo("early bytes;");
            client.send("later bytes");
            assertThat(new String(client.input().readNBytes(11), StandardCharsets.ISO_8859_1)).isEqualTo("later bytes");
            assertThat(server.liveConnections()).isEqualTo(1);
            client.shutdownOutput();
            assertThat(client.input().read()).as("the echo ends with its client").isEqualTo(-1);
            TestServers.awaitLiveConnections(server, 0);
        }
    }

    @TransportTest
    void aStoppingServerStopsTheNewProtocolToo(Transport kind) throws Exception {
        Server server = TestServers.start(kind, SWITCHING);
        try (RawClient client = RawClient.connect(server)) {
            client.send(upgradeRequest(null));
            assertThat(client.readHead().status()).isEqualTo(101);
            client.send("ping");
            assertThat(new String(client.input().readNBytes(4), StandardCharsets.ISO_8859_1)).isEqualTo("ping");
            server.close();
            assertThat(readUntilEnd(client.input())).as("closed by the server's stop").isTrue();
        } finally {
            server.close();
        }
    }

    @TransportTest
    void aSwitchBeforeTheRequestBodyWasReadIsTheHandlersMistake(Transport kind) throws Exception {
        Handler switchingEarly = (request, response) -> {
            response.header("Upgrade", "echo").header("Connection", "upgrade");
            ((ExchangeResponse) response).switchProtocols(Echo::new);
        };
        try (Server server = TestServers.start(kind, switchingEarly)) {
            try (RawClient client = RawClient.connect(server)) {
                assertThat(client.send(upgradeRequest("unread body")).read().status()).isEqualTo(500);
            }
            try (RawClient client = RawClient.connect(server)) {
                assertThat(client.send("GET / HTTP/1.0\r\nUpgrade: echo\r\n\r\n").read().status())
                        .as("HTTP/1.0 has no 101").isEqualTo(500);
            }
        }
    }

    /** Reads until the end of the stream or a reset; false when neither comes within the read timeout. */
    private static boolean readUntilEnd(InputStream in) {
        try {
            while (in.read() >= 0) { } // what the echo still had in flight
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset: ended too
        }
    }

    /** A protocol that writes back what it reads, on a thread of its own, until its client ends. */
    private static final class Echo implements ProtocolConnection {
        private final Endpoint endpoint;

        Echo(Endpoint endpoint) {
            this.endpoint = endpoint;
        }

        @Override
        public boolean serve() {
            ByteBuffer buffer = ByteBuffer.allocate(1024);
            try {
                while (true) {
                    buffer.clear();
                    if (endpoint.read(buffer, 10_000) < 0) break;
                    buffer.flip();
                    endpoint.write(buffer);
                }
            } catch (IOException e) {
                // the client went, or the server closed the connection
            } finally {
                endpoint.close();
            }
            return false;
        }

        @Override
        public void drain() {
            endpoint.close();
        }

        @Override
        public void abort() {
            endpoint.close();
        }
    }
}
