package dev.petrel.example.hello;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.testkit.TomcatDistribution;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seed 003's set-up: {@code target/hello.war} as built, deployed into a standalone Tomcat 11
 * distribution whose {@code server.xml} names {@code PetrelHttp11Protocol} on each transport
 * (Petrel's jars in {@code lib/}), beside Tomcat's own NIO connector; the war's JSP date page is
 * compiled by the distribution's Jasper, and its WebSocket endpoints (the raw echo, STOMP) run on
 * the distribution's Jakarta WebSocket.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HelloWarIT {
    @Test
    void warServesThroughPetrelOnEveryTransport() throws Exception {
        assertThat(TomcatDistribution.home()).as("the Tomcat distribution Maven unpacks").isNotNull();
        Path war = Path.of(System.getProperty("hello.war"));
        try (ZipFile zip = new ZipFile(war.toFile())) {
            // the container brings Tomcat and Petrel; a war carrying its own would shadow them
            assertThat(zip.stream().map(e -> e.getName()).filter(n -> n.startsWith("WEB-INF/lib/")))
                    .isNotEmpty().noneMatch(n -> n.contains("tomcat-embed-") || n.contains("petrel-"));
        }
        int nio = TomcatDistribution.freePort();
        String[] transports = {"blocking", "virtual", "nio"};
        int[] ports = new int[transports.length];
        StringBuilder connectors = new StringBuilder("<Connector port=\"" + nio + "\" address=\"127.0.0.1\" protocol=\"HTTP/1.1\"/>\n");
        for (int i = 0; i < transports.length; i++) {
            ports[i] = TomcatDistribution.freePort();
            connectors.append("<Connector port=\"").append(ports[i]).append("\" address=\"127.0.0.1\"")
                    .append(" protocol=\"dev.petrel.tomcat.PetrelHttp11Protocol\" transport=\"").append(transports[i]).append("\"/>\n");
        }
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        try (TomcatDistribution tomcat = TomcatDistribution.start(connectors.toString(), List.of(), List.of(war), ports[2])) {
            assertThat(tomcat.console()).contains("Deployment of web application archive").contains("hello.war");
            for (int port : new int[] {nio, ports[0], ports[1], ports[2]}) {
                String base = "http://127.0.0.1:" + port + "/hello";
                HttpResponse<String> hello = get(client, base + "/");
                assertThat(hello.statusCode()).as(tomcat.console()).isEqualTo(200);
                assertThat(hello.body()).isEqualTo("HelloWorld");
                assertThat(get(client, base + "/json").body()).isEqualTo("{\"message\":\"HelloWorld\",\"secure\":false}");
                assertThat(get(client, base + "/greeting?name=war").body()).contains("<p>Hello, war!</p>");
                HttpResponse<String> date = get(client, base + "/date.jsp");
                assertThat(date.statusCode()).isEqualTo(200);
                assertThat(date.body()).matches("(?s).*<p>\\w{3} \\w{3} \\d{2} \\d{2}:\\d{2}:\\d{2} \\w+ \\d{4}</p>.*");
                // WebSocket: the container's own Jakarta WebSocket, upgraded through the connector
                String ws = "ws://127.0.0.1:" + port + "/hello";
                assertThat(WebSocketProbe.echo(ws + "/ws/echo", "echo from the war")).containsExactly("echo from the war");
                assertThat(WebSocketProbe.greetOverStomp(ws + "/stomp", "war")).isEqualTo("Hello, war!");
            }
        }
    }

    private static HttpResponse<String> get(HttpClient client, String url) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
