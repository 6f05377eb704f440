package dev.petrel.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.WebSocketMessage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A scrape over real requests: the server's families in the Prometheus text format (and in
 * OpenMetrics when asked), each series labelled with its listener, beside the JVM's.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PrometheusMetricsTest {
    private final HttpClient client = HttpClient.newHttpClient();
    private Server app;
    private Server admin;
    private String listener;

    @BeforeEach
    void start() throws Exception {
        app = Server.builder().port(0).metrics(true)
                .handler(Router.builder().get("/hello", (request, response) -> response.send("HelloWorld"))
                        .get("/cut", (request, response) -> {
                            try (var out = response.body()) {
                                out.write(new byte[100]);
                                out.flush();
                                throw new IllegalStateException("the handler failed after committing");
                            }
                        })
                        .websocket("/ws", socket -> {
                            for (WebSocketMessage message; (message = socket.receive()) != null; ) {
                                if (message instanceof WebSocketMessage.Text text) socket.sendText(text.text());
                            }
                        }).build())
                .start();
        admin = Server.builder().port(0)
                .handler(Router.builder().get("/metrics", PrometheusMetrics.of(app).handler()).build())
                .start();
        listener = "http-" + app.address().getPort();
    }

    @AfterEach
    void stop() {
        app.stop(Duration.ZERO);
        admin.stop(Duration.ZERO);
    }

    private HttpResponse<String> get(Server server, String path, String accept) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.address().getPort() + path));
        if (accept != null) request.header("Accept", accept);
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A response cut after it began counts under its status, and as incomplete. */
    @Test
    void aCutResponseIsCountedIncomplete() throws Exception {
        assertThat(get(app, "/hello", null).statusCode()).isEqualTo(200);
        String l = "listener=\"" + listener + "\"";
        assertThat(get(admin, "/metrics", null).body()).contains("petrel_requests_incomplete_total{" + l + "} 0.0");
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", app.address().getPort())) {
            socket.setSoTimeout(5000);
            socket.getOutputStream().write("GET /cut HTTP/1.1\r\nHost: test\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            try {
                socket.getInputStream().readAllBytes(); // to the cut
            } catch (java.net.SocketException reset) {
                // the cut: a reset
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        String text;
        do {
            text = get(admin, "/metrics", null).body();
        } while (!text.contains("petrel_requests_incomplete_total{" + l + "} 1.0") && System.nanoTime() < deadline);
        assertThat(text).contains("# TYPE petrel_requests_incomplete_total counter")
                .contains("petrel_requests_incomplete_total{" + l + "} 1.0")
                .contains("petrel_requests_total{" + l + ",method=\"GET\",status=\"2xx\"} 2.0");
    }

    @Test
    void theServersFamiliesAndTheJvmsInTheTextFormat() throws Exception {
        for (int i = 0; i < 3; i++) assertThat(get(app, "/hello", null).statusCode()).isEqualTo(200);
        assertThat(get(app, "/missing", null).statusCode()).isEqualTo(404);

        HttpResponse<String> scrape = get(admin, "/metrics", null);
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        String text = scrape.body();
        String l = "listener=\"" + listener + "\"";
        assertThat(text)
                .contains("# TYPE petrel_requests_total counter")
                .contains("petrel_requests_total{" + l + ",method=\"GET\",status=\"2xx\"} 3.0")
                .contains("petrel_requests_total{" + l + ",method=\"GET\",status=\"4xx\"} 1.0")
                .contains("# TYPE petrel_request_duration_seconds histogram")
                .contains("petrel_request_duration_seconds_count{" + l + "} 4")
                .contains("petrel_request_duration_seconds_bucket{" + l + ",le=\"+Inf\"} 4")
                .contains("petrel_connections_accepted_total{" + l + "} 1.0")
                .contains("petrel_connections_open{" + l + "} 1.0") // the client keeps its connection
                .contains("petrel_connections_refused_total{" + l + "} 0.0")
                .contains("petrel_requests_in_flight{" + l + "} 0.0")
                .contains("petrel_ready 1.0")
                .containsPattern("petrel_network_received_bytes_total\\{" + l + "} [1-9]")
                .containsPattern("petrel_network_sent_bytes_total\\{" + l + "} [1-9]")
                .contains("jvm_memory_used_bytes{area=\"heap\"}")
                .contains("jvm_threads_current")
                .contains("jvm_gc_collection_seconds")
                .doesNotContain("petrel_tls_handshakes"); // no HTTPS connector
        // buckets add up: the 0.5 ms bucket holds at most what the +Inf one does
        assertThat(text).containsPattern("petrel_request_duration_seconds_bucket\\{" + l + ",le=\"5\\.0E-4\"} [0-4]\n");
    }

    /** A session's messages, bytes and close appear in the WebSocket families once it ends. */
    @Test
    void aWebSocketSessionIsCountedByItsMessagesBytesAndClose() throws Exception {
        String l = "listener=\"" + listener + "\"";
        assertThat(get(admin, "/metrics", null).body()).contains("petrel_websocket_sessions_opened_total{" + l + "} 0.0");
        CompletableFuture<String> echo = new CompletableFuture<>();
        WebSocket socket = client.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + app.address().getPort() + "/ws"),
                new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                        echo.complete(data.toString());
                        webSocket.request(1);
                        return null;
                    }
                }).get(10, TimeUnit.SECONDS);
        socket.sendText("hello", true).get(5, TimeUnit.SECONDS);
        assertThat(echo.get(5, TimeUnit.SECONDS)).isEqualTo("hello");
        assertThat(get(admin, "/metrics", null).body()).contains("petrel_websocket_sessions_open{" + l + "} 1.0");
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(5, TimeUnit.SECONDS);
        String closed = "petrel_websocket_closes_total{code=\"1000\"," + l + "} 1.0"; // labels in the order of their names
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        String text;
        do {
            text = get(admin, "/metrics", null).body();
        } while (!text.contains(closed) && System.nanoTime() < deadline);
        assertThat(text).contains(closed)
                .contains("# TYPE petrel_websocket_sessions_open gauge")
                .contains("petrel_websocket_sessions_open{" + l + "} 0.0")
                .contains("petrel_websocket_sessions_opened_total{" + l + "} 1.0")
                .contains("petrel_websocket_messages_received_total{" + l + "} 1.0")
                .contains("petrel_websocket_messages_sent_total{" + l + "} 1.0")
                .contains("petrel_websocket_received_bytes_total{" + l + "} 5.0")
                .contains("petrel_websocket_sent_bytes_total{" + l + "} 5.0")
                .doesNotContain("code=\"1006\"");
    }

    @Test
    void openMetricsWhenTheScraperAsksForIt() throws Exception {
        assertThat(get(app, "/hello", null).statusCode()).isEqualTo(200);
        HttpResponse<String> scrape = get(admin, "/metrics", "application/openmetrics-text; version=1.0.0");
        assertThat(scrape.headers().firstValue("Content-Type")).get().asString().startsWith("application/openmetrics-text");
        assertThat(scrape.body()).contains("# TYPE petrel_requests counter").endsWith("# EOF\n");
    }
}
