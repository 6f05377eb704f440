package dev.petrel.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code index.html} is {@code report.md} rendered by CommonMark with GitHub's tables. */
class HtmlReportTest {

    @Test
    void aHeadingAndATableRender() {
        String html = HtmlReport.render("""
                # Petrel benchmark report, 2026-11-22

                ## Connectors

                | Server | requests/s (req/s) |
                | --- | ---: |
                | **petrel-nio** | 46,868 (46,357–47,137) |
                | undertow (best peer) | 35,371 |
                | helidon | %s (answers HTTP/1.0 with 505) |
                """.formatted(Tables.NOT_APPLICABLE));

        assertThat(html).contains("<title>Petrel benchmark report, 2026-11-22</title>",
                "<h1>Petrel benchmark report, 2026-11-22</h1>", "<h2>Connectors</h2>",
                "<thead>\n<tr>\n<th>Server</th>\n<th align=\"right\" class=\"num\">requests/s (req/s)</th>\n</tr>\n</thead>",
                "<tr>\n<td><strong>petrel-nio</strong></td>\n<td align=\"right\" class=\"num\">46,868 (46,357–47,137)</td>\n</tr>",
                "<tr class=\"best-peer\">\n<td>undertow (best peer)</td>",
                "<tr class=\"no-result\">\n<td>helidon</td>");
        assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</body>\n</html>\n");
    }

    @Test
    void linksThatCouldRunScriptAreDroppedAndEscapedTextStaysText() {
        String html = HtmlReport.render("[x](javascript:alert(1)) [csv](ramp.csv) Jetty &lt;script&gt;\n");

        assertThat(html).doesNotContain("javascript:").doesNotContain("<script")
                .contains("href=\"ramp.csv\"", "Jetty &lt;script&gt;");
    }

    @Test
    void theBoldWarningOfAQuickRunStandsOut() {
        assertThat(HtmlReport.render("**Warning: this was a --quick smoke run.**\n"))
                .contains("<p class=\"warning\"><strong>Warning: this was a --quick smoke run.</strong></p>");
        assertThat(HtmlReport.render("**Not a warning**\n")).contains("<p><strong>Not a warning</strong></p>");
    }
}
