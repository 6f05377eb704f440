package dev.petrel.bench.report;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.Sample;
import dev.petrel.bench.model.Summary;
import java.util.List;

/**
 * The CSV files of a scenario: every sample in long format, and the summaries. Fields are quoted
 * per RFC 4180 where needed; lines end with LF, which every CSV reader accepts and which keeps the
 * files friendly to {@code grep}, {@code awk} and {@code git diff}. Numbers are plain and exact
 * (no grouping, no exponent) so a script never has to guess a locale.
 */
final class CsvWriter {
    static final String SAMPLES_HEADER = "scenario,variant,server,pass,metric,value";
    static final String SUMMARY_HEADER =
            "scenario,variant,server,metric,median,min,max,passes,ratio_to_baseline,ratio_to_best_peer";

    private CsvWriter() {}

    /** The file name of a scenario's samples. */
    static String samplesFile(Aggregation.ScenarioResult scenario) {
        return scenario.fileBase() + ".csv";
    }

    /** The file name of a scenario's summaries. */
    static String summaryFile(Aggregation.ScenarioResult scenario) {
        return scenario.fileBase() + "-summary.csv";
    }

    /** One row per sample, in the order the run recorded them (undeclared metrics included). */
    static String samples(Aggregation.ScenarioResult scenario) {
        StringBuilder out = new StringBuilder(SAMPLES_HEADER).append('\n');
        for (Sample s : scenario.samples()) {
            row(out, s.scenario(), s.variant(), s.server(), Integer.toString(s.pass()), s.metric(), Format.csv(s.value()));
        }
        return out.toString();
    }

    /**
     * One row per variant, server and metric with samples, servers in table order. The ratio
     * columns are filled on the primary metric's rows only, and only where the reference exists.
     */
    static String summary(Aggregation.ScenarioResult scenario) {
        StringBuilder out = new StringBuilder(SUMMARY_HEADER).append('\n');
        MetricInfo primary = scenario.primary();
        for (Aggregation.VariantResult variant : scenario.variantResults()) {
            for (Aggregation.Entry entry : variant.entries()) {
                for (MetricInfo metric : scenario.metrics()) {
                    Summary s = entry.summary(metric.key());
                    if (s == null) continue;
                    boolean isPrimary = metric.equals(primary);
                    row(out, scenario.info().name(), variant.name(), entry.server().name(), metric.key(),
                            Format.csv(s.median()), Format.csv(s.min()), Format.csv(s.max()), Integer.toString(s.count()),
                            isPrimary ? Format.csvRatio(entry.toBaseline()) : "",
                            isPrimary ? Format.csvRatio(entry.toBestPeer()) : "");
                }
            }
        }
        return out.toString();
    }

    private static void row(StringBuilder out, String... fields) {
        out.append(String.join(",", List.of(fields).stream().map(Escape::csv).toList())).append('\n');
    }
}
