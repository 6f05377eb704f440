package dev.petrel.bench.model;

/**
 * One figure measured in one pass: for instance scenario {@code latency}, variant
 * {@code cross-cpu}, server {@code petrel-virtual}, pass 2, metric {@code rps}, 30223.4.
 *
 * @param scenario the scenario's name
 * @param variant the variant within the scenario (e.g. {@code keep-alive}, {@code 1000 users})
 * @param server the server's name
 * @param pass the pass number, from 1
 * @param metric the metric's key, one of the scenario's {@link MetricInfo#key()}s
 * @param value the value in the metric's unit
 */
public record Sample(String scenario, String variant, String server, int pass, String metric, double value) {}
