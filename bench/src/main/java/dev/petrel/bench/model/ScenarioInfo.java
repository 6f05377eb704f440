package dev.petrel.bench.model;

import java.util.List;
import java.util.Set;

/**
 * What the report needs to know of a scenario.
 *
 * @param name the name on the command line, e.g. {@code latency}
 * @param seed the field report it reproduces, e.g. {@code 004}, or {@code null} for a scenario of
 *     the lab's own that no field report asked for
 * @param title a heading, e.g. {@code Per-request latency over one keep-alive connection}
 * @param method how it was measured, in a few sentences of Markdown (tool, options, pinning)
 * @param metrics the metrics, in column order; the first is the primary one, which the ratio
 *     columns and the bar charts use
 * @param variants the variants in the order they are reported
 * @param layout how the tables are laid out
 * @param charted the keys of the metrics that get a bar chart per variant (SERVERS_BY_VARIANT), in
 *     order, empty for the primary metric alone; or a line chart each (VARIANTS_BY_SERVER), empty
 *     for every metric
 * @param asides variants reported in full but kept out of the run's headline: figures kept for
 *     comparison with a seed, whose limit is the client rather than the server (the connectors
 *     scenario's {@code ab -k} columns)
 */
public record ScenarioInfo(String name, String seed, String title, String method, List<MetricInfo> metrics,
                           List<String> variants, Layout layout, List<String> charted, Set<String> asides) {

    public ScenarioInfo {
        asides = Set.copyOf(asides);
    }

    /** A scenario whose every variant may be in the headline. */
    public ScenarioInfo(String name, String seed, String title, String method, List<MetricInfo> metrics,
                        List<String> variants, Layout layout, List<String> charted) {
        this(name, seed, title, method, metrics, variants, layout, charted, Set.of());
    }

    /** A scenario whose bar charts show its primary metric. */
    public ScenarioInfo(String name, String seed, String title, String method, List<MetricInfo> metrics,
                        List<String> variants, Layout layout) {
        this(name, seed, title, method, metrics, variants, layout, List.of());
    }

    /** Table layouts. */
    public enum Layout {
        /** One table per variant: a row per server, a column per metric, then ratio columns. */
        SERVERS_BY_VARIANT,
        /**
         * One table per server: a row per variant (e.g. users in the ramp), a column per metric;
         * charts draw each metric against the variants, a line per server.
         */
        VARIANTS_BY_SERVER
    }

    /** The primary metric. */
    public MetricInfo primary() {
        return metrics.getFirst();
    }
}
