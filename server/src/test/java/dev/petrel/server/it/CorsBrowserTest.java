package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.server.Cors;
import dev.petrel.server.Handler;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.tls.Tools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Cors} with a real browser: a page on one server (one origin) calls an API on another
 * with {@code fetch}, and headless Chromium decides, from the answers, what the page may read.
 * A {@code PUT} with an {@code Authorization} header and credentials makes Chromium send its
 * preflight first; from an origin the API does not allow, the call fails in the page and the
 * handler never runs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CorsBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    static Path dir;

    /** The page: a fetch to {@code api}, its outcome written into the page for --dump-dom to show. */
    private static Handler page(String api) {
        String html = """
                <!DOCTYPE html><html><body><pre id="out">pending</pre><script>
                fetch('%s', {method: 'PUT', body: 'hello', credentials: 'include',
                             headers: {'Authorization': 'Bearer t', 'Content-Type': 'text/plain'}})
                  .then(r => r.text().then(t => 'status ' + r.status + ' total ' + r.headers.get('X-Total-Count') + ' body ' + t))
                  .catch(e => 'failed ' + e.name)
                  .then(s => { document.getElementById('out').textContent = s; });
                </script></body></html>
                """.formatted(api);
        return (req, res) -> res.contentType("text/html").send(html);
    }

    /** What the page showed once its script had run. */
    private static String visit(String url) throws Exception {
        Tools.Result result = Tools.runAllowingFailure(dir, List.of("timeout", "30", CHROMIUM.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--no-first-run", "--user-data-dir=" + Files.createTempDirectory(dir, "profile"),
                "--virtual-time-budget=10000", "--dump-dom", url), "");
        int start = result.output().indexOf("<pre id=\"out\">");
        assertThat(start).as("the page as Chromium left it: %s", result.output()).isNotNegative();
        return result.output().substring(start + "<pre id=\"out\">".length(), result.output().indexOf("</pre>", start));
    }

    @PlainHttpTransportTest
    void chromiumPreflightsThenReadsTheAnswerFromAnAllowedOriginAndFailsFromAnother(Transport kind) throws Exception {
        assumeTrue(Files.isExecutable(CHROMIUM), "chromium is missing; install with: apt-get install -y chromium");
        AtomicReference<String> apiUrl = new AtomicReference<>();
        Handler pageOfApi = (req, res) -> page(apiUrl.get()).handle(req, res);
        AtomicInteger preflights = new AtomicInteger();
        AtomicInteger puts = new AtomicInteger();
        try (Server pages = TestServers.start(kind, pageOfApi); Server stranger = TestServers.start(kind, pageOfApi)) {
            String origin = "http://127.0.0.1:" + pages.address().getPort();
            Cors cors = Cors.builder()
                    .allowOrigins(origin)
                    .allowMethods("PUT")
                    .allowHeaders("Authorization")
                    .exposeHeaders("X-Total-Count")
                    .allowCredentials(true)
                    .wrap(Router.builder().put("/data", (req, res) -> {
                        puts.incrementAndGet();
                        res.header("X-Total-Count", "3").send("got " + new String(req.bodyBytes(), StandardCharsets.UTF_8));
                    }).build());
            Handler api = (req, res) -> {
                if (req.method().equals("OPTIONS")) preflights.incrementAndGet();
                cors.handle(req, res);
            };
            try (Server apiServer = TestServers.start(kind, api)) {
                apiUrl.set("http://127.0.0.1:" + apiServer.address().getPort() + "/data");

                assertThat(visit(origin + "/")).isEqualTo("status 200 total 3 body got hello");
                assertThat(preflights).as("Chromium asked first").hasValue(1);
                assertThat(puts).hasValue(1);

                // the same page from another origin (another port): the preflight is refused, the PUT never sent
                assertThat(visit("http://127.0.0.1:" + stranger.address().getPort() + "/")).isEqualTo("failed TypeError");
                assertThat(preflights).hasValue(2);
                assertThat(puts).as("a refused preflight runs no handler").hasValue(1);
            }
        }
    }
}
