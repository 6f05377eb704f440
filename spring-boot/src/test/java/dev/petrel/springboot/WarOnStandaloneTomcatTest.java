package dev.petrel.springboot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.testkit.TomcatDistribution;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 003's set-up: the Spring Boot HelloWorld built as a war and deployed into a standalone
 * Tomcat 11 distribution whose {@code server.xml} names {@code PetrelHttp11Protocol} (Petrel's
 * jars in {@code lib/}), once per transport, beside Tomcat's own NIO connector.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class WarOnStandaloneTomcatTest {
    /** What a Boot war leaves to the container, or only the tests use. */
    private static final List<String> NOT_IN_THE_WAR = List.of("tomcat-embed-", "petrel-", "spring-boot-tomcat",
            "spring-boot-starter-tomcat", "junit-", "opentest4j", "apiguardian", "assertj-", "mockito-", "byte-buddy",
            "objenesis", "spring-boot-test", "spring-test", "spring-boot-starter-test", "jsonassert", "android-json",
            "hamcrest", "awaitility", "xmlunit", "json-path", "json-smart", "accessors-smart", "asm-", "jakarta.servlet-api",
            "surefire", "jakarta.xml.bind", "jakarta.activation");

    @Test
    void springBootWarServesThroughPetrel(@TempDir Path dir) throws Exception {
        assumeTrue(TomcatDistribution.home() != null, "no Tomcat distribution unpacked (run through Maven)");
        Path war = buildWar(dir.resolve("hello.war"));
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
                HttpResponse<String> hello = client.send(HttpRequest.newBuilder(URI.create(base + "/")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(hello.statusCode()).as(tomcat.console()).isEqualTo(200);
                assertThat(hello.body()).isEqualTo("HelloWorld");
                HttpResponse<String> json = client.send(HttpRequest.newBuilder(URI.create(base + "/json")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(json.body()).isEqualTo("{\"message\":\"HelloWorld\",\"secure\":false}");
            }
        }
    }

    /** The war Maven's war plugin would make: the application's classes and the jars it needs. */
    private static Path buildWar(Path war) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(war))) {
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                Path path = Path.of(entry);
                String name = path.getFileName().toString();
                if (Files.isDirectory(path) && path.endsWith(Path.of("target", "test-classes"))) {
                    Path classes = path.resolve("dev/petrel/springboot");
                    try (Stream<Path> files = Files.list(classes)) {
                        for (Path file : (Iterable<Path>) files.filter(f -> f.getFileName().toString().startsWith("Hello"))::iterator) {
                            add(out, "WEB-INF/classes/dev/petrel/springboot/" + file.getFileName(), file);
                        }
                    }
                } else if (name.endsWith(".jar") && NOT_IN_THE_WAR.stream().noneMatch(name::startsWith)) {
                    add(out, "WEB-INF/lib/" + name, path);
                }
            }
        }
        return war;
    }

    private static void add(JarOutputStream out, String name, Path file) throws IOException {
        out.putNextEntry(new ZipEntry(name));
        Files.copy(file, out);
        out.closeEntry();
    }
}
