package dev.petrel.bench.report;

import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.report.Aggregation.ScenarioResult;
import dev.petrel.bench.report.Charts.Chart;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a lab run's report. The files, all UTF-8, in one directory so relative links work:
 *
 * <ul>
 *   <li>{@code <scenario>.csv}: every sample, one row each ({@code scenario,variant,server,pass,metric,value});
 *   <li>{@code <scenario>-summary.csv}: median, min, max and passes per variant, server and metric, with
 *       the primary metric's ratios to the baseline and to the best peer;
 *   <li>{@code report.md}: the headline (best Petrel against best peer per scenario), environment,
 *       servers, a section per scenario with its tables and charts, and the problems;
 *   <li>{@code index.html}: {@code report.md} rendered as one self-contained page;
 *   <li>{@code *.svg}: per variant a bar chart of the primary metric, or of each metric the scenario
 *       names in {@code ScenarioInfo.charted} (and one of the percentiles when the scenario has
 *       {@code p50}-style metrics), or for a ramp a line chart per metric.
 * </ul>
 *
 * <p>Ratios are oriented so that above 1 is always better than the reference: value/reference for
 * metrics where higher is better, reference/value where lower is better.
 */
public final class ReportWriter {
    private ReportWriter() {}

    /**
     * Writes every file of the report into {@code dir}, creating it if needed and replacing files
     * of the same names.
     *
     * @param results the run
     * @param dir the directory to write into
     * @throws IOException if a file cannot be written
     */
    public static void write(RunResults results, Path dir) throws IOException {
        Aggregation aggregation = Aggregation.of(results);
        List<Chart> charts = Charts.plan(aggregation);
        List<Outline.Block> outline = Outline.of(aggregation, charts);
        Files.createDirectories(dir);
        for (ScenarioResult scenario : aggregation.scenarios()) {
            write(dir.resolve(CsvWriter.samplesFile(scenario)), CsvWriter.samples(scenario));
            write(dir.resolve(CsvWriter.summaryFile(scenario)), CsvWriter.summary(scenario));
        }
        for (Chart chart : charts) write(dir.resolve(chart.file()), chart.svg().get());
        String markdown = MarkdownReport.render(outline);
        write(dir.resolve("report.md"), markdown);
        write(dir.resolve("index.html"), HtmlReport.render(markdown));
    }

    /**
     * What {@code report.md} contains, for the lab to print or embed elsewhere.
     *
     * @param results the run
     * @return the Markdown text; its image links are relative to the report directory
     */
    public static String markdown(RunResults results) {
        Aggregation aggregation = Aggregation.of(results);
        return MarkdownReport.render(Outline.of(aggregation, Charts.plan(aggregation)));
    }

    /**
     * The report's headline table as plain text for a terminal, or an empty string when the run
     * measured nothing it could go in: what the lab prints at the end of a run.
     *
     * @param results the run
     * @return the table's lines, each ending with a line break
     */
    public static String headline(RunResults results) {
        Aggregation aggregation = Aggregation.of(results);
        return Headline.hasRows(aggregation) ? TextTable.render(Headline.of(aggregation)) : "";
    }

    /**
     * The names of the files {@link #write} produces for {@code results}, without writing them: for
     * the lab to print where the report went, or to clean a directory first.
     *
     * @param results the run
     * @return file names relative to the report directory, in writing order
     */
    public static List<String> files(RunResults results) {
        Aggregation aggregation = Aggregation.of(results);
        List<String> files = new ArrayList<>();
        for (ScenarioResult scenario : aggregation.scenarios()) {
            files.add(CsvWriter.samplesFile(scenario));
            files.add(CsvWriter.summaryFile(scenario));
        }
        Charts.plan(aggregation).forEach(c -> files.add(c.file()));
        files.add("report.md");
        files.add("index.html");
        return files;
    }

    private static void write(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
