package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.testkit.ApacheHttpd;
import dev.petrel.testkit.TomcatDistribution;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Tomcat's own {@code examples} webapp in a standalone Tomcat distribution whose
 * {@code server.xml} has Tomcat's NIO connector and Petrel's on each transport side by side:
 * every page the examples link (a bounded crawl) is fetched through each, and Petrel's answers
 * must equal Tomcat's, status and body, once what differs by nature is masked (ports, session
 * ids, times). So must the answers of a real Apache httpd in front of Petrel's AJP connector
 * ({@code PetrelAjpProtocol}) in the same Tomcat, with mod_jk and with mod_proxy_ajp, where httpd
 * is installed.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ExamplesCrawlTest {
    private static final int MAX_PAGES = 400;
    private static final String SECRET = "examples-secret";
    private static final Duration MAX_CRAWL = Duration.ofSeconds(60);
    private static final Duration FETCH_TIMEOUT = Duration.ofSeconds(45);
    private static final Pattern LINK = Pattern.compile("(?:href|src|action)\\s*=\\s*\"([^\"#]*)", Pattern.CASE_INSENSITIVE);
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();

    /** Pages random by design (shuffled rows, a ticker of random prices): compared on status and a body present. */
    private static final Set<String> RANDOM_PAGES = Set.of("/examples/jsp/jsp2/jspattribute/shuffle.jsp",
            "/examples/async/stockticker");

    record Answer(int status, String location, String body) {}

    @Test
    void everyExamplePageAnswersAsOnTomcatsOwnConnector() throws Exception {
        assumeTrue(TomcatDistribution.home() != null, "no Tomcat distribution unpacked (run through Maven)");
        int nio = TomcatDistribution.freePort();
        String[] transports = {"blocking", "virtual", "nio"};
        int[] petrel = new int[transports.length];
        StringBuilder connectors = new StringBuilder("<Connector port=\"" + nio + "\" address=\"127.0.0.1\" protocol=\"HTTP/1.1\" connectionTimeout=\"20000\"/>\n");
        for (int i = 0; i < transports.length; i++) {
            petrel[i] = TomcatDistribution.freePort();
            connectors.append("<Connector port=\"").append(petrel[i]).append("\" address=\"127.0.0.1\"")
                    .append(" protocol=\"dev.petrel.tomcat.PetrelHttp11Protocol\" transport=\"").append(transports[i])
                    .append("\" connectionTimeout=\"20000\" maxThreads=\"200\"/>\n");
        }
        int ajp = TomcatDistribution.freePort();
        connectors.append("<Connector port=\"").append(ajp).append("\" address=\"127.0.0.1\"")
                .append(" protocol=\"dev.petrel.tomcat.PetrelAjpProtocol\" transport=\"nio\" secret=\"").append(SECRET).append("\"/>\n");
        int tomcatAjp = TomcatDistribution.freePort();
        connectors.append("<Connector port=\"").append(tomcatAjp).append("\" address=\"127.0.0.1\"")
                .append(" protocol=\"AJP/1.3\" secret=\"").append(SECRET).append("\"/>\n");
        boolean withHttpd = ApacheHttpd.unavailableReason().isEmpty();
        try (TomcatDistribution tomcat = TomcatDistribution.start(connectors.toString(), List.of("examples"), List.of(), petrel[2]);
             ApacheHttpd modJk = withHttpd ? frontEnd(ApacheHttpd.AjpModule.MOD_JK, ajp) : null;
             ApacheHttpd modProxyAjp = withHttpd ? frontEnd(ApacheHttpd.AjpModule.MOD_PROXY_AJP, ajp) : null;
             ApacheHttpd modJkToTomcat = withHttpd ? frontEnd(ApacheHttpd.AjpModule.MOD_JK, tomcatAjp) : null;
             ApacheHttpd modProxyAjpToTomcat = withHttpd ? frontEnd(ApacheHttpd.AjpModule.MOD_PROXY_AJP, tomcatAjp) : null) {
            List<String> names = new ArrayList<>(List.of(transports));
            List<Integer> ports = new ArrayList<>();
            for (int port : petrel) ports.add(port);
            // each Petrel connector against its Tomcat twin: HTTP against Tomcat's NIO connector,
            // AJP behind httpd against Tomcat's AJP connector behind the same kind of httpd
            List<Integer> references = new ArrayList<>(java.util.Collections.nCopies(ports.size(), nio));
            if (withHttpd) {
                names.addAll(List.of("httpd mod_jk, AJP", "httpd mod_proxy_ajp, AJP"));
                ports.addAll(List.of(modJk.port(), modProxyAjp.port()));
                references.addAll(List.of(modJkToTomcat.port(), modProxyAjpToTomcat.port()));
            }
            assertThat(tomcat.console()).contains("Starting Petrel connector [petrel-http-" + petrel[2] + "]").as("Tomcat's maxThreads, which Petrel does not take, is reported")
                    .contains("attribute [maxThreads=\"200\"] is not supported");
            List<String> pages = crawl(nio);
            assertThat(pages).as("pages found").hasSizeGreaterThan(50);
            List<String> differences = new ArrayList<>();
            for (String page : pages) {
                // all at once: the async examples take their time (the stock ticker until its 30 s timeout)
                List<CompletableFuture<Answer>> referenceFetches = new ArrayList<>();
                List<CompletableFuture<Answer>> fetches = new ArrayList<>();
                for (int i = 0; i < ports.size(); i++) {
                    referenceFetches.add(fetchAsync(references.get(i), page));
                    fetches.add(fetchAsync(ports.get(i), page));
                }
                for (int i = 0; i < ports.size(); i++) {
                    Answer reference = referenceFetches.get(i).get(FETCH_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                    Answer answer = fetches.get(i).get(FETCH_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                    String expected = RANDOM_PAGES.contains(page) ? reference.status() + " " + !reference.body().isEmpty()
                            : mask(reference, references.get(i));
                    String actual = RANDOM_PAGES.contains(page) ? answer.status() + " " + !answer.body().isEmpty() : mask(answer, ports.get(i));
                    if (!expected.equals(actual)) {
                        differences.add(names.get(i) + " " + page + "\n--- tomcat\n" + abbreviate(expected)
                                + "\n--- petrel\n" + abbreviate(actual));
                    }
                }
            }
            assertThat(differences).as("pages that differ (of %d)", pages.size()).isEmpty();
        }
    }

    private static ApacheHttpd frontEnd(ApacheHttpd.AjpModule module, int ajpPort) throws IOException {
        return ApacheHttpd.builder(module).backend("127.0.0.1", ajpPort).secret(SECRET).path("/examples").start();
    }

    /** The examples' pages, breadth first from their index, bounded in count and time. */
    private static List<String> crawl(int port) throws Exception {
        Set<String> seen = new LinkedHashSet<>();
        Deque<String> queue = new ArrayDeque<>(List.of("/examples/"));
        long deadline = System.nanoTime() + MAX_CRAWL.toNanos();
        while (!queue.isEmpty() && seen.size() < MAX_PAGES && System.nanoTime() < deadline) {
            String page = queue.poll();
            if (!seen.add(page) || RANDOM_PAGES.contains(page)) continue; // no links there, and the ticker runs 30 s
            Answer answer = fetch(port, page);
            List<String> links = new ArrayList<>();
            if (answer.status() / 100 == 3) links.add(answer.location());
            if (answer.status() == 200) {
                Matcher found = LINK.matcher(answer.body());
                while (found.find()) links.add(found.group(1).strip());
            }
            for (String link : links) {
                if (link.isEmpty() || link.startsWith("javascript") || link.startsWith("mailto")) continue;
                URI resolved = URI.create("http://localhost" + page).resolve(link.replace(" ", "%20"));
                String host = resolved.getHost();
                String path = resolved.getRawPath();
                if (("localhost".equals(host) || "127.0.0.1".equals(host)) && path != null && path.startsWith("/examples/")
                        && !path.contains("..") && !seen.contains(path)) {
                    queue.add(path);
                }
            }
        }
        return new ArrayList<>(seen);
    }

    private static Answer fetch(int port, String path) throws Exception {
        return fetchAsync(port, path).get(FETCH_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    private static CompletableFuture<Answer> fetchAsync(int port, String path) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(FETCH_TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofByteArray()).thenApply(response -> new Answer(response.statusCode(),
                        response.headers().firstValue("Location").orElse(""), new String(response.body(), StandardCharsets.ISO_8859_1)));
    }

    /** What differs between two connectors by nature: ports, session ids, times. */
    static String mask(Answer answer, int port) {
        String body = ("Location: " + answer.location() + "\n" + answer.body())
                .replaceAll("\\b" + port + "\\b", "PORT")
                .replaceAll("(?i)jsessionid=[0-9A-F]{32}", "jsessionid=SESSION")
                .replaceAll("[0-9A-F]{32}", "SESSION")
                .replaceAll("\\d{1,2}:\\d{2}:\\d{2}", "TIME")
                .replaceAll("\\d{10,13}", "MILLIS");
        return answer.status() + "\n" + body;
    }

    private static String abbreviate(String text) {
        return text.length() <= 1500 ? text : text.substring(0, 1500) + "...";
    }
}
