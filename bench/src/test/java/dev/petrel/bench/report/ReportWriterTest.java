package dev.petrel.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.bench.model.RunResults;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/** The files {@link ReportWriter#write} produces, read back from disk. */
class ReportWriterTest {
    private static final List<String> SVGS = List.of("latency-same-cpu.svg", "latency-same-cpu-percentiles.svg",
            "latency-cross-cpu.svg", "latency-cross-cpu-percentiles.svg", "ramp-rps.svg", "ramp-errors.svg");
    private static final List<String> RAMP_SERVERS =
            List.of("dummy", "petrel-virtual", "petrel-nio", "jetty", "tomcat-nio", "undertow");

    @TempDir
    Path dir;
    private RunResults results;

    @BeforeEach
    void write() throws IOException {
        results = RunFixture.run(false);
        ReportWriter.write(results, dir.resolve("out"));
        dir = dir.resolve("out");
    }

    private String read(String file) throws IOException {
        return Files.readString(dir.resolve(file), StandardCharsets.UTF_8);
    }

    private List<String> written() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static Document parse(String xml) throws Exception {
        var factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    }

    /** The text of every {@code <text>} element, in document order. */
    private static List<String> texts(Document svg) {
        NodeList nodes = svg.getElementsByTagNameNS(Svg.NS, "text");
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) texts.add(nodes.item(i).getTextContent());
        return texts;
    }

    @Test
    void writesTheFilesItAnnouncesAndTheMarkdownItReturns() throws IOException {
        assertThat(written()).containsExactlyInAnyOrderElementsOf(ReportWriter.files(results));
        assertThat(written()).contains("latency.csv", "latency-summary.csv", "ramp.csv", "ramp-summary.csv", "report.md",
                "index.html").containsAll(SVGS).hasSize(6 + SVGS.size());
        assertThat(read("report.md")).isEqualTo(ReportWriter.markdown(results));
        assertThat(read("latency.csv").lines()).hasSize(1 + RunFixture.LATENCY_SAMPLES);
    }

    @Test
    void everySvgIsStandaloneSvgWithATitleAndAViewBox() throws Exception {
        for (String file : SVGS) {
            Document svg = parse(read(file));
            Element root = svg.getDocumentElement();
            assertThat(root.getLocalName()).as(file).isEqualTo("svg");
            assertThat(root.getNamespaceURI()).as(file).isEqualTo("http://www.w3.org/2000/svg");
            assertThat(root.getAttribute("version")).isEqualTo("1.1");
            assertThat(root.getAttribute("viewBox")).as(file).matches("0 0 [0-9.]+ [0-9.]+");
            assertThat(svg.getElementsByTagNameNS(Svg.NS, "title").item(0).getTextContent()).as(file).isNotBlank();
            // no external resources: no CSS, no links, no font files
            assertThat(read(file)).as(file).doesNotContain("<style", "href", "@import", "url(");
        }
    }

    @Test
    void barChartsListTheServersInTableOrderWithTheirValues() throws Exception {
        List<String> texts = texts(parse(read("latency-same-cpu.svg")));
        List<String> names = List.of("dummy", "petrel-virtual", "petrel-nio", "undertow (best peer)", "jetty",
                "tomcat-nio", "netty");
        List<String> servers = texts.stream().filter(names::contains).toList();
        assertThat(servers).containsExactly("dummy", "petrel-virtual", "petrel-nio", "undertow (best peer)", "jetty",
                "tomcat-nio", "netty");
        assertThat(texts).contains("42.0", "50.0", "95.0", "no result", "round-trip (µs)", "baseline", "Petrel", "peer");
        assertThat(texts.getFirst()).isEqualTo("Per-request latency over one keep-alive connection: same-cpu");

        List<String> cross = texts(parse(read("latency-cross-cpu.svg")));
        assertThat(cross).contains("jetty (best peer)", "petrel-nio", "undertow").doesNotContain("netty", "no result");
    }

    @Test
    void percentileChartsHaveABarPerPercentilePerServer() throws Exception {
        Document svg = parse(read("latency-same-cpu-percentiles.svg"));
        List<String> texts = texts(svg);
        assertThat(texts).contains("dummy", "petrel-virtual", "petrel-nio", "undertow (best peer)", "jetty", "tomcat-nio");
        assertThat(texts.stream().filter("p50"::equals)).hasSize(6);
        assertThat(texts.stream().filter("p99"::equals)).hasSize(6);
        // petrel-virtual: p50 = 0.9 × 50, p99 = 2.5 × 50
        assertThat(texts).contains("45.0", "125.0");
    }

    @Test
    void rampChartsHaveALinePerServerAndTheVariantsInOrder() throws Exception {
        for (String file : List.of("ramp-rps.svg", "ramp-errors.svg")) {
            Document svg = parse(read(file));
            List<String> texts = texts(svg);
            assertThat(texts).as(file).containsAll(RAMP_SERVERS);
            assertThat(texts.stream().filter(t -> t.endsWith(" users"))).containsExactly("1000 users", "2000 users", "3000 users");
            // undertow has no 3000-users point: its line is one segment of two points
            assertThat(svg.getElementsByTagNameNS(Svg.NS, "polyline").getLength()).as(file).isEqualTo(6);
        }
        assertThat(texts(parse(read("ramp-rps.svg")))).contains("requests/s (req/s)", "25,000");
    }

    @Test
    void indexHtmlIsTheMarkdownRenderedWithEverySvgAndRunTextEscaped() throws IOException {
        String html = read("index.html");
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<meta charset=\"utf-8\">", "<style>",
                "<title>Petrel benchmark report, 2025-06-01</title>");
        for (String svg : written().stream().filter(f -> f.endsWith(".svg")).toList()) {
            assertThat(html).contains("<img src=\"" + svg + "\"");
        }
        assertThat(html).doesNotContain("<script").doesNotContain("src=\"http")
                .contains("Jetty 12 &lt;script&gt;alert('x')&lt;/script&gt;");
        // the Markdown's tables, with the classes the stylesheet colours them by
        assertThat(html).contains("<h2>Per-request latency over one keep-alive connection [seeds 004]</h2>",
                "<tr class=\"best-peer\">\n<td>undertow (best peer)</td>",
                "<td align=\"right\" class=\"num\">50.0 (49.0–52.0)</td>",
                "<tr class=\"no-result\">\n<td>netty</td>\n<td align=\"right\" class=\"num\">no result</td>",
                "<td><strong>petrel-virtual</strong></td>",
                "<li>" + RunFixture.PROBLEM + "</li>", "<a rel=\"nofollow\" href=\"ramp-summary.csv\">ramp-summary.csv</a>");
        // the method is Markdown, rendered
        assertThat(html).contains("<p><code>ab -k -c1 -n100000</code>, server and <code>ab</code> pinned to "
                + "<em>separate</em> CPUs.</p>");
        assertThat(html).doesNotContain("Warning");
    }

    @Test
    void aQuickRunsHtmlCarriesTheWarning() throws IOException {
        ReportWriter.write(RunFixture.run(true), dir);
        assertThat(read("index.html")).contains("<h1>Petrel benchmark report, 2025-06-01 (--quick run)</h1>",
                "<p class=\"warning\"><strong>Warning: this was a --quick smoke run");
    }
}
