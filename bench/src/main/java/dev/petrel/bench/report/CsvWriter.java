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
    /** Columns are only ever added at the end, so that a reader by position keeps working. */
    static final String SAMPLES_HEADER = "scenario,variant,server,pass,metric,value,server_cpu";
    static final String SUMMARY_HEADER = "scenario,variant,server,metric,median,min,max,passes,ratio_to_baseline,"
            + "ratio_to_best_peer,median_server_cpu0,median_server_cpu1";

    private CsvWriter() {}

    /** The file name of a scenario's samples. */
    static String samplesFile(Aggregation.ScenarioResult scenario) {
        return scenario.fileBase() + ".csv";
    }

    /** The file name of a scenario's summaries. */
    static String summaryFile(Aggregation.ScenarioResult scenario) {
        return scenario.fileBase() + "-summary.csv";
    }

    /**
     * One row per sample, in the order the run recorded them (undeclared metrics included), with the
     * CPU the server was pinned to in its pass (empty when not recorded).
     */
    static String samples(Aggregation.ScenarioResult scenario) {
        StringBuilder out = new StringBuilder(SAMPLES_HEADER).append('\n');
        for (Sample s : scenario.samples()) {
            row(out, s.scenario(), s.variant(), s.server(), Integer.toString(s.pass()), s.metric(), Format.csv(s.value()),
                    s.serverCpu() == Sample.UNKNOWN_CPU ? "" : Integer.toString(s.serverCpu()));
        }
        return out.toString();
    }

    /**
     * One row per variant, server and metric with samples, servers in table order. The ratio
     * columns are filled on the primary metric's rows only, and only where the reference exists;
     * the last two are the median over the passes with the server on CPU 0, and on CPU 1 (the lab
     * alternates the two), empty where there were none.
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
                            isPrimary ? Format.csvRatio(entry.toBestPeer()) : "",
                            perCpu(entry, metric, 0), perCpu(entry, metric, 1));
                }
            }
        }
        return out.toString();
    }

    private static String perCpu(Aggregation.Entry entry, MetricInfo metric, int cpu) {
        Summary s = entry.summary(metric.key(), cpu);
        return s == null ? "" : Format.csv(s.median());
    }

    private static void row(StringBuilder out, String... fields) {
        out.append(String.join(",", List.of(fields).stream().map(Escape::csv).toList())).append('\n');
    }
}
