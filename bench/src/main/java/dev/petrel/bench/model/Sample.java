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
 * @param serverCpu the CPU the server was pinned to in that pass ({@link #UNKNOWN_CPU} when not
 *     recorded): passes alternate the CPUs of server and client, and the report gives each
 *     assignment's median
 */
public record Sample(String scenario, String variant, String server, int pass, String metric, double value, int serverCpu) {
    /** The {@link #serverCpu()} of a sample whose pinning was not recorded. */
    public static final int UNKNOWN_CPU = -1;

    /** A sample whose server's CPU is not known. */
    public Sample(String scenario, String variant, String server, int pass, String metric, double value) {
        this(scenario, variant, server, pass, metric, value, UNKNOWN_CPU);
    }
}
