package dev.petrel.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** README's figure blocks are rewritten from the results file; nothing else in README changes. */
class ReadmeFiguresTest {
    /** The shape of a published RESULTS.md: its headline, then a scenario section with its overview. */
    static final String RESULTS = """
            # Petrel benchmark report, 2026-11-22

            ## Headline

            Per scenario and variant, the best Petrel against the best peer.

            | Scenario | Variant | Metric | Best Petrel | Best peer | × best peer |
            | --- | --- | --- | ---: | ---: | ---: |
            | connectors | HTTP keep-alive | requests/s (req/s) | 75,860 (petrel-nio-inline) | 36,118 (vertx) | 2.10 |

            ## Environment

            ## Connectors [seeds 000]

            Data: [connectors.csv](RESULTS/connectors.csv) (every pass), [connectors-summary.csv](RESULTS/connectors-summary.csv).

            ### requests/s (req/s), median per server

            | Server | HTTP keep-alive | HTTPS keep-alive |
            | --- | ---: | ---: |
            | baseline-c (baseline) | 131,234 | n/a |
            | **petrel-nio** | 46,868 | 31,548 |
            | undertow | 35,371 | 22,101 |
            | helidon | no result | not applicable |

            ### HTTP keep-alive (3 passes)

            | Server | requests/s (req/s) |
            | --- | ---: |
            | baseline-c (baseline) | 131,234 |
            """;

    static final String README = """
            # Petrel

            Some prose that stays.

            <!-- figures:begin connectors -->
            | server | HTTP keep-alive | HTTPS keep-alive |
            |---|---:|---:|
            | undertow | 35,370 | 22,101 |
            <!-- figures:end -->

            More prose.

            <!-- figures:begin headline -->
            <!-- figures:end -->
            """;

    @Test
    void eachBlockGetsTheTableItNamesAndTheRestIsKept() {
        String rewritten = FiguresBlock.rewrite(README, new ResultsFile(RESULTS)::table);

        assertThat(rewritten).isEqualTo("""
                # Petrel

                Some prose that stays.

                <!-- figures:begin connectors -->
                | Server | HTTP keep-alive | HTTPS keep-alive |
                | --- | ---: | ---: |
                | baseline-c (baseline) | 131,234 | n/a |
                | **petrel-nio** | 46,868 | 31,548 |
                | undertow | 35,371 | 22,101 |
                <!-- figures:end -->

                More prose.

                <!-- figures:begin headline -->
                | Scenario | Variant | Metric | Best Petrel | Best peer | × best peer |
                | --- | --- | --- | ---: | ---: | ---: |
                | connectors | HTTP keep-alive | requests/s (req/s) | 75,860 (petrel-nio-inline) | 36,118 (vertx) | 2.10 |
                <!-- figures:end -->
                """);
        // a second run changes nothing
        assertThat(FiguresBlock.rewrite(rewritten, new ResultsFile(RESULTS)::table)).isEqualTo(rewritten);
    }

    @Test
    void aDocumentWithoutAFinalLineBreakKeepsItsEnding() {
        String doc = "a\n<!-- figures:begin x -->\nold\n<!-- figures:end -->";
        assertThat(FiguresBlock.rewrite(doc, Map.of("x", List.of("| new |", "| --- |"))::get))
                .isEqualTo("a\n<!-- figures:begin x -->\n| new |\n| --- |\n<!-- figures:end -->");
    }

    @Test
    void brokenMarkersAndMissingTablesAreErrorsNotSilentNoOps() {
        ResultsFile results = new ResultsFile(RESULTS);
        assertThatThrownBy(() -> FiguresBlock.rewrite("<!-- figures:begin headline -->\n| x |\n", results::table))
                .hasMessageContaining("headline has no <!-- figures:end -->");
        assertThatThrownBy(() -> FiguresBlock.rewrite("| x |\n<!-- figures:end -->\n", results::table))
                .hasMessageContaining("line 2: an end marker without a begin");
        assertThatThrownBy(() -> FiguresBlock.rewrite("no markers at all\n", results::table))
                .hasMessageContaining("no <!-- figures:begin NAME --> block");
        assertThatThrownBy(() -> results.table("ramp")).hasMessageContaining("no section of scenario 'ramp'");
        assertThatThrownBy(() -> new ResultsFile("# Old report\n\n## Environment\n").table("headline"))
                .hasMessageContaining("no '## Headline' section");
    }

    @Test
    void theHeadlineOfAReportTheLabWroteIsFound() {
        String report = ReportWriter.markdown(RunFixture.run(false));

        assertThat(new ResultsFile(report).table("headline")).hasSize(5)
                .startsWith("| Scenario | Variant | Metric | Best Petrel | Best peer | × best peer |")
                .contains("| ramp | 3000 users | requests/s (req/s) | 17,300 (petrel-virtual) | 13,400 (jetty) | 1.29 |");
        // the fixture's netty never ran: its row carries no figure and is left out of the quoted overview
        assertThat(new ResultsFile(report).table("latency")).noneMatch(row -> row.startsWith("| netty "))
                .anyMatch(row -> row.startsWith("| undertow |"));
    }

    @Test
    void theMainRewritesTheFileAndCheckSaysWhetherItIsUpToDate(@TempDir Path dir) throws IOException {
        Path readme = Files.writeString(dir.resolve("README.md"), README);
        Path results = Files.writeString(dir.resolve("RESULTS.md"), RESULTS);

        assertThat(ReadmeFigures.run(List.of("--check", readme.toString(), results.toString()))).isEqualTo(1);
        assertThat(Files.readString(readme)).isEqualTo(README);
        assertThat(ReadmeFigures.run(List.of(readme.toString(), results.toString()))).isZero();
        assertThat(Files.readString(readme)).contains("| undertow | 35,371 | 22,101 |").doesNotContain("35,370");
        assertThat(ReadmeFigures.run(List.of("--check", readme.toString(), results.toString()))).isZero();
        assertThat(ReadmeFigures.run(List.of(readme.toString()))).isEqualTo(2);
    }
}
