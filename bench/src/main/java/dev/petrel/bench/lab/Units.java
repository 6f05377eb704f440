package dev.petrel.bench.lab;

/** Time units as load tools print them. */
final class Units {
    private Units() {}

    /** {@code value} in {@code unit} (us, ms, s) as milliseconds. */
    static double toMillis(double value, String unit) {
        return switch (unit) {
            case "us" -> value / 1000;
            case "ms" -> value;
            case "s" -> value * 1000;
            default -> throw new IllegalArgumentException("unknown time unit: " + unit);
        };
    }
}
