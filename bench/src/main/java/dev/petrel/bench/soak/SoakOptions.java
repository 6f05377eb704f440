package dev.petrel.bench.soak;

import java.util.List;

/**
 * How the soak runs.
 *
 * @param minutes        the traffic's duration for each server
 * @param quick          the short run of CI: the same traffic and faults, slopes and drift not judged
 * @param seed           draws routes, operations, sizes and faults: the same seed, the same run
 * @param rate           the soak's own clients' operations per second
 * @param maxConnections each server's connection limit, which one fault goes past
 * @param servers        {@link SoakServer.Kind} labels, in the order to run
 */
public record SoakOptions(int minutes, boolean quick, long seed, int rate, int maxConnections, List<String> servers) {
    /** The default duration, and that of {@code --quick}. */
    public static final int DEFAULT_MINUTES = 30;
    public static final int QUICK_MINUTES = 2;
    /** The servers it knows: Petrel, and Tomcat's own NIO connector as the anchor. */
    public static final List<String> SERVERS = List.of("petrel", "tomcat-nio");

    public SoakOptions {
        servers = List.copyOf(servers);
    }

    /** The defaults for a run of {@code minutes} (or the quick one), on Petrel alone. */
    public static SoakOptions of(Integer minutes, boolean quick, Long seed, List<String> servers) {
        int m = minutes != null ? minutes : quick ? QUICK_MINUTES : DEFAULT_MINUTES;
        long s = seed != null ? seed : System.currentTimeMillis() % 1_000_000;
        return new SoakOptions(m, quick, s, quick ? 20 : 40, 1000, servers.isEmpty() ? List.of("petrel") : servers);
    }

    /** Warm-up: what the slopes and the drift leave out, the JIT and the heap's first sizing. */
    public double warmUpSeconds() {
        return Math.min(300, minutes * 60 * 0.2);
    }
}
