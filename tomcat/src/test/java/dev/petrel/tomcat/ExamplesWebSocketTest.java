package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.testkit.TomcatDistribution;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The WebSocket pages of Tomcat's own {@code examples} webapp (echo in its three forms, chat,
 * snake, drawboard) in a standalone Tomcat distribution, driven by a real WebSocket client (the
 * JDK's) through Tomcat's NIO connector and through Petrel's on two transports. Each page's
 * exchange is written down as a transcript, with what differs by nature masked (guest numbers,
 * coordinates); Petrel's transcripts must equal Tomcat's, and Tomcat's must say what the page does.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ExamplesWebSocketTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void everyWebSocketExampleAnswersAsOnTomcatsOwnConnector() throws Exception {
        assumeTrue(TomcatDistribution.home() != null, "no Tomcat distribution unpacked (run through Maven)");
        int nio = TomcatDistribution.freePort();
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put("tomcat-nio", nio);
        StringBuilder connectors = new StringBuilder("<Connector port=\"" + nio + "\" address=\"127.0.0.1\" protocol=\"HTTP/1.1\"/>\n");
        for (String transport : new String[] {"blocking", "nio"}) {
            int port = TomcatDistribution.freePort();
            ports.put(transport, port);
            connectors.append("<Connector port=\"").append(port).append("\" address=\"127.0.0.1\"")
                    .append(" protocol=\"dev.petrel.tomcat.PetrelHttp11Protocol\" transport=\"").append(transport).append("\"/>\n");
        }
        try (TomcatDistribution tomcat = TomcatDistribution.start(connectors.toString(), List.of("examples"), List.of(), ports.get("nio"))) {
            Map<String, List<String>> transcripts = new LinkedHashMap<>();
            for (Map.Entry<String, Integer> connector : ports.entrySet()) {
                transcripts.put(connector.getKey(), transcript(connector.getValue()));
            }
            List<String> reference = transcripts.get("tomcat-nio");
            assertThat(reference).as("what Tomcat's own connector answers").containsExactly(
                    "echoAnnotation: text Hello, Petrel", "echoAnnotation: binary 00ff7f",
                    "echoProgrammatic: text Hello, Petrel", "echoProgrammatic: binary 00ff7f",
                    "echoStreamAnnotation: text Hello, Petrel", "echoStreamAnnotation: binary 00ff7f",
                    "chat: first sees * Guest# has joined.", "chat: first sees * Guest# has joined.",
                    "chat: second sees * Guest# has joined.", "chat: first sees Guest#: hi all", "chat: second sees Guest#: hi all",
                    "snake: join", "snake: update",
                    "drawboard: text 2#", "drawboard: binary png");
            for (Map.Entry<String, List<String>> petrel : transcripts.entrySet()) {
                assertThat(petrel.getValue()).as("Petrel's connector on " + petrel.getKey()).isEqualTo(reference);
            }
        }
    }

    /** Every page's exchange through the connector on {@code port}. */
    private static List<String> transcript(int port) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        List<String> lines = new ArrayList<>();
        for (String echo : new String[] {"echoAnnotation", "echoProgrammatic", "echoStreamAnnotation"}) {
            Client client = Client.open(http, port, "/examples/websocket/" + echo);
            client.socket.sendText("Hello, Petrel", true).get(5, TimeUnit.SECONDS);
            lines.add(echo + ": " + client.next());
            client.socket.sendBinary(ByteBuffer.wrap(new byte[] {0, (byte) 0xff, 0x7f}), true).get(5, TimeUnit.SECONDS);
            lines.add(echo + ": " + client.next());
            client.close();
        }

        Client first = Client.open(http, port, "/examples/websocket/chat");
        lines.add("chat: first sees " + guest(first.next()));
        Client second = Client.open(http, port, "/examples/websocket/chat");
        lines.add("chat: first sees " + guest(first.next()));
        lines.add("chat: second sees " + guest(second.next()));
        first.socket.sendText("hi all", true).get(5, TimeUnit.SECONDS);
        lines.add("chat: first sees " + guest(first.next()));
        lines.add("chat: second sees " + guest(second.next()));
        second.close();
        first.close();

        Client snake = Client.open(http, port, "/examples/websocket/snake");
        lines.add("snake: " + packetType(snake.next()));
        snake.socket.sendText("west", true).get(5, TimeUnit.SECONDS);
        String type;
        do {
            type = packetType(snake.next()); // the game ticks; a player's moves come as updates
        } while (type.equals("join"));
        lines.add("snake: " + type);
        snake.close();

        Client drawboard = Client.open(http, port, "/examples/websocket/drawboard");
        lines.add("drawboard: " + drawboard.next().replaceAll("text 2\\d+", "text 2#"));
        String image = drawboard.next();
        lines.add("drawboard: " + (image.startsWith("binary 89504e47") ? "binary png" : image));
        drawboard.close();
        return lines;
    }

    private static String guest(String message) {
        return message.replaceFirst("^text ", "").replaceAll("Guest\\d+", "Guest#");
    }

    /** The snake's packets are JSON: {"type": "join", ...}; a tick may bundle several. */
    private static String packetType(String message) {
        java.util.regex.Matcher type = java.util.regex.Pattern.compile("\"type\"\\s*:\\s*\"(\\w+)\"").matcher(message);
        return type.find() ? type.group(1) : message;
    }

    /** One WebSocket client: each whole message as "text ..." or "binary <hex of its first 16 bytes>". */
    private static final class Client {
        private final WebSocketCollector messages = new WebSocketCollector();
        private WebSocket socket;

        static Client open(HttpClient http, int port, String path) throws Exception {
            Client client = new Client();
            client.socket = http.newWebSocketBuilder().connectTimeout(WAIT)
                    .buildAsync(URI.create("ws://127.0.0.1:" + port + path), client.messages).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            return client;
        }

        String next() throws InterruptedException {
            Object message = messages.next(WAIT);
            if (message == null) return "nothing within " + WAIT.toSeconds() + " s";
            if (message instanceof String text) return "text " + text;
            byte[] bytes = (byte[]) message;
            return "binary " + HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, 16));
        }

        void close() throws Exception {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(5, TimeUnit.SECONDS);
        }
    }
}
