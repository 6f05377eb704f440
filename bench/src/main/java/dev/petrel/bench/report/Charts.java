package dev.petrel.bench.report;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.ScenarioInfo.Layout;
import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.model.ServerInfo.Group;
import dev.petrel.bench.model.Summary;
import dev.petrel.bench.report.Aggregation.Entry;
import dev.petrel.bench.report.Aggregation.ScenarioResult;
import dev.petrel.bench.report.Aggregation.VariantResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Decides which charts a run gets and what they are called; draws them on demand. The report
 * texts need the names and titles only, so the SVG itself is produced lazily.
 */
final class Charts {
    /** {@code p50}, {@code p99}, {@code p999}, {@code p99.9}: a latency percentile. */
    private static final Pattern PERCENTILE = Pattern.compile("p\\d+(\\.\\d+)?", Pattern.CASE_INSENSITIVE);

    /**
     * A chart.
     *
     * @param scenario the scenario's name
     * @param file its file name, unique in the run
     * @param title its title, also the image's alternative text
     * @param svg draws it
     */
    record Chart(String scenario, String file, String title, Supplier<String> svg) {}

    private Charts() {}

    /** Every chart of the run, scenario by scenario, in the order the report shows them. */
    static List<Chart> plan(Aggregation aggregation) {
        List<Chart> charts = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        for (ScenarioResult scenario : aggregation.scenarios()) {
            if (scenario.metrics().isEmpty()) continue;
            if (scenario.info().layout() == Layout.VARIANTS_BY_SERVER) ramp(scenario, taken, charts);
            else perVariant(scenario, taken, charts);
        }
        return charts;
    }

    /** Whether a metric key names a percentile, which gets the grouped percentile chart. */
    static boolean isPercentile(String key) {
        return PERCENTILE.matcher(key).matches();
    }

    private static void perVariant(ScenarioResult scenario, Set<String> taken, List<Chart> charts) {
        List<MetricInfo> charted = charted(scenario);
        // the percentile chart also shows "max" when present: it is the top of the same distribution
        List<MetricInfo> percentiles = scenario.metrics().stream().anyMatch(m -> isPercentile(m.key()))
                ? scenario.metrics().stream().filter(m -> isPercentile(m.key()) || m.key().equalsIgnoreCase("max")).toList()
                : List.of();
        for (int i = 0; i < scenario.variantResults().size(); i++) {
            VariantResult variant = scenario.variantResults().get(i);
            // the first table also lists servers without any sample; the chart mirrors the table
            List<ServerInfo> missing = i == 0 ? scenario.missing() : List.of();
            String slug = Format.slug(variant.name()).isEmpty() ? "variant-" + (i + 1) : Format.slug(variant.name());
            String base = scenario.fileBase() + "-" + slug;
            String heading = scenario.info().title() + ": " + variant.name();
            for (int j = 0; j < charted.size(); j++) {
                MetricInfo metric = charted.get(j);
                // the first chart is named after the variant alone, as a scenario's single primary chart is
                String file = Aggregation.unique(taken, j == 0 ? base : base + "-" + metricSlug(metric, j)) + ".svg";
                String title = j == 0 ? heading : heading + ", " + metric.label();
                String subtitle = Format.heading(metric.label(), metric.unit()) + ", median of " + variant.passes()
                        + ", whisker min–max; " + direction(metric);
                charts.add(new Chart(scenario.info().name(), file, title, () -> BarChart.render(title, subtitle,
                        Format.heading(metric.label(), metric.unit()), metric.unit(),
                        bands(variant, missing, List.of(metric)), true)));
            }
            if (!percentiles.isEmpty()) {
                String file = Aggregation.unique(taken, base + "-percentiles") + ".svg";
                MetricInfo first = percentiles.getFirst();
                String title = heading + ", percentiles";
                String subtitle = "Median over " + variant.passes() + " of each percentile; " + direction(first);
                charts.add(new Chart(scenario.info().name(), file, title, () -> BarChart.render(title, subtitle,
                        Format.heading("percentiles", first.unit()), first.unit(), bands(variant, missing, percentiles),
                        false)));
            }
        }
    }

    /**
     * The metrics that get a bar chart per variant: those the scenario names that have samples, in its
     * order, or the primary metric alone (none when it was not measured).
     */
    private static List<MetricInfo> charted(ScenarioResult scenario) {
        List<String> keys = scenario.info().charted();
        if (keys == null || keys.isEmpty()) return scenario.primary() == null ? List.of() : List.of(scenario.primary());
        return keys.stream().flatMap(k -> scenario.metrics().stream().filter(m -> m.key().equals(k))).toList();
    }

    private static String metricSlug(MetricInfo metric, int index) {
        return Format.slug(metric.key()).isEmpty() ? "metric-" + (index + 1) : Format.slug(metric.key());
    }

    /** VARIANTS_BY_SERVER: a line chart per metric the scenario names in {@code charted}, or per metric when it names none. */
    private static void ramp(ScenarioResult scenario, Set<String> taken, List<Chart> charts) {
        List<String> keys = scenario.info().charted();
        List<MetricInfo> metrics = keys == null || keys.isEmpty() ? scenario.metrics()
                : keys.stream().flatMap(k -> scenario.metrics().stream().filter(m -> m.key().equals(k))).toList();
        for (int j = 0; j < metrics.size(); j++) {
            MetricInfo metric = metrics.get(j);
            String file = Aggregation.unique(taken, scenario.fileBase() + "-" + metricSlug(metric, j)) + ".svg";
            String title = scenario.info().title() + ": " + metric.label();
            String subtitle = "Median of " + scenario.passes() + " per point; " + direction(metric);
            charts.add(new Chart(scenario.info().name(), file, title, () -> LineChart.render(title, subtitle,
                    Format.heading(metric.label(), metric.unit()), scenario.variants(), series(scenario, metric))));
        }
    }

    private static List<BarChart.Band> bands(VariantResult variant, List<ServerInfo> missing, List<MetricInfo> metrics) {
        List<BarChart.Band> bands = new ArrayList<>();
        boolean keyed = metrics.size() > 1;
        for (Entry e : variant.entries()) {
            List<BarChart.Bar> bars = new ArrayList<>();
            for (int j = 0; j < metrics.size(); j++) {
                Summary s = e.summary(metrics.get(j).key());
                double opacity = keyed ? 0.4 + 0.6 * (j + 1) / metrics.size() : 1;
                if (s != null) bars.add(new BarChart.Bar(keyed ? metrics.get(j).key() : null, s, opacity));
            }
            String label = e.server().name() + (e.bestPeer() ? " (best peer)" : "");
            String absent = e.notApplicable() != null ? Tables.NOT_APPLICABLE : Tables.NO_RESULT;
            bands.add(new BarChart.Band(label, e.server().group() == Group.PETREL, e.server().group(), bars, absent));
        }
        for (ServerInfo s : missing) {
            bands.add(new BarChart.Band(s.name(), s.group() == Group.PETREL, s.group(), List.of(), Tables.NO_RESULT));
        }
        return bands;
    }

    private static List<LineChart.Series> series(ScenarioResult scenario, MetricInfo metric) {
        List<LineChart.Series> series = new ArrayList<>();
        // HashMap: an undescribed server's group is null, and it counts its own shades
        Map<Group, Integer> perGroup = new HashMap<>();
        for (ServerInfo server : scenario.servers()) {
            List<Double> values = new ArrayList<>();
            for (VariantResult v : scenario.variantResults()) {
                Summary s = v.entry(server.name()).summary(metric.key());
                values.add(s == null ? null : s.median());
            }
            if (values.stream().allMatch(v -> v == null)) continue;
            int index = perGroup.merge(server.group(), 1, Integer::sum) - 1;
            series.add(new LineChart.Series(server.name(), server.group(), index, values));
        }
        return series;
    }

    private static String direction(MetricInfo metric) {
        return metric.higherIsBetter() ? "higher is better" : "lower is better";
    }
}
