package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.WebSocketHandler;
import dev.petrel.server.WebSocketMessage;
import dev.petrel.server.WebSocketMetrics;
import dev.petrel.server.config.AccessLog;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the server records of WebSocket sessions: its connector's {@link WebSocketMetrics}
 * (sessions, messages and payload bytes each way, closes by code) and an access log line per
 * session when it ends, with the handshake's request line, the client's address after the PROXY
 * header, the session's duration, its messages and bytes, and its close code.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WebSocketSessionRecordTest {
    /** Four characters, nine bytes of UTF-8: counted as bytes. */
    private static final String WIDE = "é€😀";

    private static final WebSocketHandler ECHO_OR_FAIL = socket -> {
        if ("fail".equals(socket.query())) throw new IllegalStateException("the handler's bug");
        for (WebSocketMessage message; (message = socket.receive()) != null; ) {
            switch (message) {
                case WebSocketMessage.Text text -> socket.sendText(text.text());
                case WebSocketMessage.Binary binary -> socket.sendBinary(binary.bytes());
            }
        }
    };

    @TempDir
    Path dir;

    private static Router router() {
        return Router.builder().websocket("/ws", ECHO_OR_FAIL).build();
    }

    @TransportTest
    void aSessionsMessagesBytesAndCloseAreCountedAndLoggedWhenItEnds(Transport kind) throws Exception {
        Path file = dir.resolve("access.log");
        Server server = TestServers.builder(kind, TestServers.config().build(), router()).metrics(true)
                .accessLog(AccessLog.file(file)).start();
        try {
            WebSocketMetrics metrics = server.metrics().getFirst().webSockets();
            try (HttpClient http = WebSocketClients.client(kind)) {
                WebSocketClients.Recorder events = new WebSocketClients.Recorder();
                WebSocket socket = http.newWebSocketBuilder().buildAsync(WebSocketClients.uri(server, kind), events).get(10, TimeUnit.SECONDS);
                socket.sendText("hello", true).get(5, TimeUnit.SECONDS);
                assertThat(events.next()).isEqualTo("text:hello");
                assertThat(metrics.sessionsOpen()).as("open while it lasts").isEqualTo(1);
                assertThat(metrics.messagesReceived()).as("counted as it goes").isEqualTo(1);
                socket.sendText(WIDE, true).get(5, TimeUnit.SECONDS);
                assertThat(events.next()).isEqualTo("text:" + WIDE);
                socket.sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3}), true).get(5, TimeUnit.SECONDS);
                assertThat(events.next()).isEqualTo("binary:[1, 2, 3]");
                socket.sendPing(ByteBuffer.wrap(new byte[] {9})).get(5, TimeUnit.SECONDS); // no message: not counted
                assertThat(events.next()).isEqualTo("pong:\t");
                socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(5, TimeUnit.SECONDS);
                assertThat(events.next()).isEqualTo("close:1000");
            }
            TestServers.awaitCondition("the session counted as ended", Duration.ofSeconds(5), () -> metrics.closes(1000) == 1);
            assertThat(metrics.sessionsOpened()).isEqualTo(1);
            assertThat(metrics.sessionsOpen()).isZero();
            assertThat(metrics.messagesReceived()).isEqualTo(3);
            assertThat(metrics.messagesSent()).isEqualTo(3);
            assertThat(metrics.bytesReceived()).isEqualTo(5 + 9 + 3);
            assertThat(metrics.bytesSent()).isEqualTo(5 + 9 + 3);
            assertThat(metrics.closesOther()).isZero();
            for (int code : WebSocketMetrics.CLOSE_CODES) assertThat(metrics.closes(code)).as("closes with %d", code).isEqualTo(code == 1000 ? 1 : 0);
        } finally {
            server.stop(Duration.ofSeconds(5)); // writes what is queued
        }
        List<String> lines = Files.readAllLines(file);
        String time = "\\[\\d{2}/\\w{3}/\\d{4}:\\d{2}:\\d{2}:\\d{2} [+-]\\d{4}\\]";
        assertThat(lines).as("the handshake's exchange, then the session").hasSize(2);
        assertThat(lines.get(0)).matches("127\\.0\\.0\\.1 - - " + time + " \"GET /ws HTTP/1\\.1\" 101 - \"-\" \"[^\"]+\"");
        assertThat(lines.get(1)).matches("127\\.0\\.0\\.1 - - " + time + " \"GET /ws HTTP/1\\.1\" 101 17 \"-\" \"[^\"]+\""
                + " websocket close_code=1000 duration_ms=\\d+\\.\\d{3} messages_received=3 bytes_received=17 messages_sent=3 bytes_sent=17");
    }

    /**
     * Sessions closed every way, from clients behind a PROXY header: each line (JSON here) names
     * the client the proxy reported and the session's close code, and each code is counted.
     */
    @PlainHttpTransportTest
    void eachWayASessionEndsIsCountedByItsCodeAndLoggedWithTheProxiedClient(Transport kind) throws Exception {
        Path file = dir.resolve("access.json");
        Server server = TestServers.builder(kind, TestServers.config().build(), router()).metrics(true)
                .proxyProtocol(true).trustedProxies("127.0.0.1")
                .accessLog(AccessLog.file(file).format(AccessLog.Format.JSON)).start();
        WebSocketMetrics metrics = server.metrics().getFirst().webSockets();
        try {
            try (RawClient client = open(server, "198.51.100.1", "/ws")) {
                client.send(new byte[] {(byte) 0x81, 0x02, 'h', 'i'}); // unmasked: the client broke the protocol
                assertThat(closeCode(client)).isEqualTo(1002);
            }
            try (RawClient client = open(server, "198.51.100.2", "/ws")) {
                client.disconnect(); // gone without a close frame
            }
            try (RawClient client = open(server, "198.51.100.3", "/ws?fail")) {
                assertThat(closeCode(client)).isEqualTo(1011);
            }
            try (RawClient client = open(server, "198.51.100.4", "/ws")) {
                client.send(new byte[] {(byte) 0x81, (byte) 0x82, 0, 0, 0, 0, 'h', 'i'}); // masked with a zero key
                DataInputStream in = new DataInputStream(client.input());
                assertThat(in.readNBytes(4)).containsExactly(0x81, 0x02, 'h', 'i');
                client.send(new byte[] {(byte) 0x88, (byte) 0x82, 0, 0, 0, 0, 0x03, (byte) 0xE8}); // close, 1000
                assertThat(closeCode(client)).isEqualTo(1000);
            }
            TestServers.awaitCondition("four sessions ended", Duration.ofSeconds(10), () -> metrics.sessionsOpened() == 4
                    && metrics.closes(1000) + metrics.closes(1002) + metrics.closes(1006) + metrics.closes(1011) == 4);
            assertThat(metrics.sessionsOpen()).isZero();
            assertThat(List.of(metrics.closes(1000), metrics.closes(1002), metrics.closes(1006), metrics.closes(1011)))
                    .containsOnly(1L);
            assertThat(metrics.closesOther()).isZero();
        } finally {
            server.stop(Duration.ofSeconds(5));
        }
        List<String> sessions = Files.readAllLines(file).stream().filter(line -> line.contains("\"websocket\":true")).toList();
        assertThat(sessions).hasSize(4);
        assertThat(lineOf(sessions, "198.51.100.1")).contains("\"close_code\":1002", "\"messages_received\":0", "\"complete\":true");
        assertThat(lineOf(sessions, "198.51.100.2")).contains("\"close_code\":1006", "\"complete\":false");
        assertThat(lineOf(sessions, "198.51.100.3")).contains("\"target\":\"/ws?fail\"", "\"close_code\":1011");
        assertThat(lineOf(sessions, "198.51.100.4")).startsWith("{\"time\":\"").contains("\"method\":\"GET\"",
                        "\"target\":\"/ws\"", "\"protocol\":\"HTTP/1.1\"", "\"scheme\":\"http\"", "\"host\":\"a\"", "\"status\":101",
                        "\"bytes\":2", "\"complete\":true", "\"referer\":null", "\"user_agent\":null", "\"close_code\":1000",
                        "\"messages_received\":1", "\"bytes_received\":2", "\"messages_sent\":1", "\"bytes_sent\":2")
                .containsPattern("\"duration_ms\":\\d+\\.\\d{3}").endsWith("}");
    }

    /** A session opened by hand from {@code client} as a PROXY v1 header names it. */
    private static RawClient open(Server server, String client, String target) throws IOException {
        byte[] proxy = ("PROXY TCP4 " + client + " 10.0.0.1 4711 80\r\n").getBytes(StandardCharsets.US_ASCII);
        RawClient raw = RawClient.connectWithPreface(server, "127.0.0.1", proxy);
        raw.send("GET " + target + " HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
        assertThat(raw.readHead().status()).isEqualTo(101);
        return raw;
    }

    /** Reads the server's close frame and answers its code. */
    private static int closeCode(RawClient client) throws IOException {
        DataInputStream in = new DataInputStream(client.input());
        assertThat(in.readUnsignedByte()).as("a close frame, final").isEqualTo(0x88);
        int length = in.readUnsignedByte();
        int code = in.readUnsignedShort();
        in.skipNBytes(length - 2);
        return code;
    }

    private static String lineOf(List<String> lines, String remote) {
        return lines.stream().filter(line -> line.contains("\"remote\":\"" + remote + "\"")).findFirst().orElseThrow();
    }
}
