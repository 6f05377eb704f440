package dev.petrel.bench.model;

/**
 * A metric a scenario reports.
 *
 * @param key the key used in {@link Sample#metric()}, e.g. {@code rps}
 * @param label the column heading, e.g. {@code requests/s}
 * @param unit the unit, e.g. {@code req/s}, {@code µs}, {@code %}
 * @param higherIsBetter whether a larger value is better (requests/s) or worse (latency, errors)
 */
public record MetricInfo(String key, String label, String unit, boolean higherIsBetter) {}
