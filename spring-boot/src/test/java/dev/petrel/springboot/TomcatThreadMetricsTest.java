package dev.petrel.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import dev.petrel.tomcat.PetrelHttp11Protocol;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/**
 * Actuator's {@code tomcat.threads.*} metrics on Petrel's connector: Micrometer's Tomcat binder finds
 * Petrel's {@code ThreadPool} bean as it finds Tomcat's, with Tomcat's JMX registry on (as it must be
 * for Tomcat's own connector too).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@SpringBootTest(classes = HelloApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "server.address=127.0.0.1", "server.tomcat.mbeanregistry.enabled=true", "server.tomcat.max-connections=123",
        "management.endpoints.web.exposure.include=metrics"})
class TomcatThreadMetricsTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    private WebServerApplicationContext context;

    @Test
    void threadMetricsComeFromPetrelsThreadPoolBean() throws Exception {
        assertThat(((TomcatWebServer) context.getWebServer()).getTomcat().getConnector().getProtocolHandler())
                .isInstanceOf(PetrelHttp11Protocol.class);
        String connector = "petrel-http-" + context.getWebServer().getPort();

        JsonNode busy = metric("tomcat.threads.busy");
        assertThat(busy.at("/availableTags/0/tag").asString()).isEqualTo("name");
        assertThat(busy.at("/availableTags/0/values/0").asString()).isEqualTo(connector);
        // the request asking is itself in the servlet
        assertThat(busy.at("/measurements/0/value").asDouble()).isGreaterThanOrEqualTo(1);

        assertThat(metric("tomcat.threads.config.max").at("/measurements/0/value").asDouble()).isEqualTo(123);
        assertThat(metric("tomcat.threads.current").at("/measurements/0/value").asDouble()).isGreaterThanOrEqualTo(1);
        assertThat(metric("tomcat.connections.current").at("/measurements/0/value").asDouble()).isGreaterThanOrEqualTo(1);
        assertThat(metric("tomcat.connections.config.max").at("/measurements/0/value").asDouble()).isEqualTo(123);
    }

    private JsonNode metric(String name) throws Exception {
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + context.getWebServer().getPort() + "/actuator/metrics/" + name))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(name + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
