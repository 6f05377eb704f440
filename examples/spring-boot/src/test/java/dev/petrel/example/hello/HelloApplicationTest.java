package dev.petrel.example.hello;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.tomcat.PetrelHttp11Protocol;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/** The application in Boot's own test harness, on a random port: its embedded Tomcat serves through Petrel. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "server.address=127.0.0.1")
class HelloApplicationTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Autowired
    private WebServerApplicationContext context;

    private HttpResponse<String> get(String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + context.getWebServer().getPort() + path);
        return CLIENT.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theEmbeddedTomcatRunsOnPetrelsConnector() {
        TomcatWebServer server = (TomcatWebServer) context.getWebServer();
        assertThat(server.getTomcat().getConnector().getProtocolHandler()).isInstanceOf(PetrelHttp11Protocol.class);
    }

    @Test
    void rootAnswersHelloWorld() throws Exception {
        HttpResponse<String> response = get("/");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("HelloWorld");
    }

    @Test
    void jsonEndpointAnswersJson() throws Exception {
        HttpResponse<String> response = get("/json");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(response.body()).isEqualTo("{\"message\":\"HelloWorld\",\"secure\":false}");
    }

    @Test
    void thymeleafPageIsRendered() throws Exception {
        HttpResponse<String> response = get("/greeting?name=Petrel");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/html"));
        assertThat(response.body()).contains("<p>Hello, Petrel!</p>").contains("Today is <span>");
    }

    @Test
    void unknownPathIsNotFound() throws Exception {
        assertThat(get("/nothing-here").statusCode()).isEqualTo(404);
    }
}
