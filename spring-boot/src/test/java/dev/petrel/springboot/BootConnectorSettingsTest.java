package dev.petrel.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.tomcat.PetrelHttp11Protocol;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.connector.Connector;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Every Spring Boot connector setting on Petrel's connector, listed: each honoured one is set to a
 * value other than its default and is found on Petrel's protocol (and, where it shows, in how the
 * connector behaves); each refused one is set and named by exactly one warning line, and none of
 * those warnings appears while they keep their defaults. The URI encoding holds in part, and says so.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(OutputCaptureExtension.class)
class BootConnectorSettingsTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** What a check sees of the running application. */
    private record Running(ConfigurableApplicationContext context, PetrelHttp11Protocol petrel, Connector connector, String base,
            CapturedOutput output) {}

    /** A setting Petrel honours, with its value here and how to see it applied. */
    private record Honoured(String property, String value, Check check) {}

    @FunctionalInterface
    private interface Check {
        void verify(Running running, SoftAssertions softly) throws Exception;
    }

    /** Boot's settings Petrel honours. server.shutdown comes last: its check stops the connector. */
    private static final List<Honoured> HONOURED = List.of(
            new Honoured("server.tomcat.max-connections", "321",
                    (r, softly) -> softly.assertThat(r.petrel().getMaxConnections()).isEqualTo(321)),
            new Honoured("server.tomcat.accept-count", "42",
                    (r, softly) -> softly.assertThat(r.petrel().getAcceptCount()).isEqualTo(42)),
            new Honoured("server.tomcat.connection-timeout", "7s",
                    (r, softly) -> softly.assertThat(r.petrel().getConnectionTimeout()).isEqualTo(7000)),
            new Honoured("server.tomcat.keep-alive-timeout", "9s",
                    (r, softly) -> softly.assertThat(r.petrel().getKeepAliveTimeout()).isEqualTo(9000)),
            new Honoured("server.tomcat.max-keep-alive-requests", "3",
                    (r, softly) -> softly.assertThat(r.petrel().getMaxKeepAliveRequests()).isEqualTo(3)),
            new Honoured("server.tomcat.max-swallow-size", "4KB",
                    (r, softly) -> softly.assertThat(r.petrel().getMaxSwallowSize()).isEqualTo(4096)),
            new Honoured("server.max-http-request-header-size", "2KB", (r, softly) -> {
                softly.assertThat(r.petrel().getMaxHttpRequestHeaderSize()).isEqualTo(2048);
                softly.assertThat(getWithCookie(r, 1500).statusCode()).as("a head under 2 KiB").isEqualTo(200);
                softly.assertThat(getWithCookie(r, 2500).statusCode()).as("a head over 2 KiB").isEqualTo(431);
            }),
            new Honoured("server.tomcat.max-http-form-post-size", "1KB", (r, softly) -> {
                softly.assertThat(r.connector().getMaxPostSize()).isEqualTo(1024);
                softly.assertThat(postForm(r, 500).body()).isEqualTo("length 500");
                softly.assertThat(postForm(r, 2000).body()).as("a form over 1 KiB is not parsed").isNotEqualTo("length 2000");
            }),
            new Honoured("server.tomcat.uri-encoding", "ISO-8859-1", (r, softly) -> {
                softly.assertThat(r.connector().getURIEncoding()).isEqualTo("ISO-8859-1");
                HttpResponse<String> decoded = get(r.base() + "/decoded/%C3%A9");
                softly.assertThat(decoded.body()).as("Catalina decodes %C3%A9 as Latin-1, ending in ©, not UTF-8's é"
                        + " (status " + decoded.statusCode() + ")").isEqualTo("a9");
                // in part only: Petrel refuses a path that is not UTF-8 before Catalina could decode it
                softly.assertThat(get(r.base() + "/decoded/%E9").statusCode()).as("Latin-1's é alone").isEqualTo(400);
                softly.assertThat(warningLines(r.output(), "server.tomcat.uri-encoding ")).singleElement().asString()
                        .contains("holds only in part");
            }),
            new Honoured("server.shutdown", "graceful", (r, softly) -> {
                CompletableFuture<GracefulShutdownResult> result = new CompletableFuture<>();
                ((WebServerApplicationContext) r.context()).getWebServer().shutDownGracefully(result::complete);
                softly.assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo(GracefulShutdownResult.IDLE);
                softly.assertThat(get(r.base() + "/").statusCode()).as("new requests turned away").isEqualTo(503);
            }));

    /** Boot's settings Petrel refuses: the property, a value, and what its one warning line names. */
    private static final List<String[]> REFUSED = List.of(
            new String[] {"server.tomcat.threads.max", "50", "server.tomcat.threads.max "},
            new String[] {"server.tomcat.threads.min-spare", "5", "server.tomcat.threads.min-spare "},
            new String[] {"server.tomcat.threads.max-queue-capacity", "10", "server.tomcat.threads.max-queue-capacity "},
            new String[] {"server.tomcat.processor-cache", "50", "server.tomcat.processor-cache "},
            new String[] {"server.tomcat.max-http-response-header-size", "4KB", "server.tomcat.max-http-response-header-size "},
            new String[] {"server.compression.enabled", "true", "server.compression.enabled "},
            // Boot sets these as <Connector> attributes, which Petrel's protocol names when it ignores one
            new String[] {"server.tomcat.relaxed-path-chars", "|", "attribute [relaxedPathChars="},
            new String[] {"server.tomcat.relaxed-query-chars", "|", "attribute [relaxedQueryChars="},
            new String[] {"server.server-header", "petrel-test", "attribute [server="});

    @Test
    void eachHonouredSettingReachesPetrelsConnector(CapturedOutput output) throws Exception {
        List<String> args = new ArrayList<>();
        for (Honoured setting : HONOURED) args.add(setting.property() + "=" + setting.value());
        try (ConfigurableApplicationContext context = run(args)) {
            Connector connector = ((TomcatWebServer) ((WebServerApplicationContext) context).getWebServer()).getTomcat()
                    .getConnector();
            assertThat(connector.getProtocolHandler()).isInstanceOf(PetrelHttp11Protocol.class);
            Running running = new Running(context, (PetrelHttp11Protocol) connector.getProtocolHandler(), connector,
                    "http://127.0.0.1:" + connector.getLocalPort(), output);
            SoftAssertions softly = new SoftAssertions();
            for (Honoured setting : HONOURED) {
                SoftAssertions one = new SoftAssertions();
                setting.check().verify(running, one);
                softly.assertThat(one.errorsCollected()).as(setting.property()).isEmpty();
            }
            softly.assertAll();
        }
        for (String[] refused : REFUSED) {
            assertThat(output.getAll()).as(refused[0] + " left at its default: no warning").doesNotContain(refused[2]);
        }
    }

    @Test
    void eachRefusedSettingIsNamedByExactlyOneWarningLine(CapturedOutput output) throws Exception {
        List<String> args = new ArrayList<>();
        for (String[] refused : REFUSED) args.add(refused[0] + "=" + refused[1]);
        try (ConfigurableApplicationContext context = run(args)) {
            assertThat(get("http://127.0.0.1:" + ((WebServerApplicationContext) context).getWebServer().getPort() + "/").body())
                    .as("served, the refused settings ignored").isEqualTo("HelloWorld");
        }
        SoftAssertions softly = new SoftAssertions();
        for (String[] refused : REFUSED) {
            softly.assertThat(warningLines(output, refused[2])).as(refused[0]).singleElement().asString().contains("not supported");
        }
        softly.assertAll();
    }

    /** The warning lines logged so far that contain {@code text}. */
    private static List<String> warningLines(CapturedOutput output, String text) {
        return Arrays.stream(output.getAll().split("\\R")).filter(line -> line.contains("WARN") && line.contains(text)).toList();
    }

    private static ConfigurableApplicationContext run(List<String> properties) {
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1"));
        for (String property : properties) args.add("--" + property);
        return SpringApplication.run(HelloApplication.class, args.toArray(String[]::new));
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> getWithCookie(Running running, int cookieLength) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(running.base() + "/")).header("Cookie", "c=" + "a".repeat(cookieLength))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> postForm(Running running, int valueLength) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(running.base() + "/form"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("p=" + "v".repeat(valueLength)))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
