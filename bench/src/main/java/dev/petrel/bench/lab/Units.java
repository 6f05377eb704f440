package dev.petrel.bench.lab;

/** Time units as load tools print them. */
final class Units {
    private Units() {}

    /** {@code value} in {@code unit} (us, ms, s; wrk also says m and h past a minute) as milliseconds. */
    static double toMillis(double value, String unit) {
        return switch (unit) {
            case "us" -> value / 1000;
            case "ms" -> value;
            case "s" -> value * 1000;
            case "m" -> value * 60_000;
            case "h" -> value * 3_600_000;
            default -> throw new IllegalArgumentException("unknown time unit: " + unit);
        };
    }
}
