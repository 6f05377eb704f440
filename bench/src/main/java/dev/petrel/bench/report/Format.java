package dev.petrel.bench.report;

import dev.petrel.bench.model.ServerInfo;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.Normalizer;
import java.util.Locale;

/**
 * How numbers, ratios and names look in every output. Kept in one place so the tables, charts and
 * CSV files agree on digits and units.
 */
final class Format {
    /** Shown for a value that does not exist (no reference for a ratio, a metric not measured). */
    static final String NONE = "–";

    private Format() {}

    /**
     * A measured value for a human: thousands separators always; decimals by unit, as the brief and
     * the seeds do (requests/s whole, µs and ms one decimal, % two decimals).
     */
    static String value(double v, String unit) {
        if (!Double.isFinite(v)) return NONE;
        return grouped(v, decimals(v, unit));
    }

    /** {@code min–max} of a summary's range, in the metric's unit. */
    static String range(double min, double max, String unit) {
        return value(min, unit) + "–" + value(max, unit);
    }

    /** A ratio with two decimals, or {@link #NONE} when there is no reference. */
    static String ratio(double r) {
        return Double.isFinite(r) ? grouped(r, 2) : NONE;
    }

    /** An axis tick: as many decimals as the step between ticks needs, no more. */
    static String tick(double v, double step) {
        int decimals = step >= 1 ? 0 : (int) Math.ceil(-Math.log10(step) - 1e-9);
        return grouped(v, decimals);
    }

    /**
     * A number for a CSV file: exact and plain (no grouping, no exponent), so spreadsheets and
     * scripts read it the same everywhere.
     */
    static String csv(double v) {
        if (!Double.isFinite(v)) return Double.toString(v);
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    /** A ratio for a CSV file: four decimals are more than any run's noise justifies. */
    static String csvRatio(double r) {
        if (!Double.isFinite(r)) return "";
        return BigDecimal.valueOf(r).setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }

    /** A metric's column heading: {@code label (unit)}, or just the label when it has no unit. */
    static String heading(String label, String unit) {
        return unit == null || unit.isBlank() ? label : label + " (" + unit + ")";
    }

    /** How a group is named in tables and legends. */
    static String group(ServerInfo.Group group) {
        if (group == null) return "unknown";
        return switch (group) {
            case BASELINE -> "baseline";
            case PETREL -> "Petrel";
            case PEER -> "peer";
        };
    }

    /**
     * A file-name-safe form of a name: lower case ASCII letters, digits and single dashes. Returns
     * an empty string when nothing is left (e.g. a name in Chinese); callers then number it.
     */
    static String slug(String name) {
        String plain = Normalizer.normalize(name, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
        return plain.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    }

    /** The date part of an ISO-8601 time for the title; the whole text when it is not ISO. */
    static String date(String isoTime) {
        if (isoTime == null) return "unknown date";
        return isoTime.matches("\\d{4}-\\d{2}-\\d{2}.*") ? isoTime.substring(0, 10) : isoTime;
    }

    private static int decimals(double v, String unit) {
        String u = unit == null ? "" : unit.strip().toLowerCase(Locale.ROOT);
        double a = Math.abs(v);
        if (u.endsWith("/s")) return a >= 100 ? 0 : 1;
        return switch (u) {
            case "µs", "μs", "us", "ms", "s" -> 1;
            case "ns" -> 0;
            case "%" -> 2;
            // counts, bytes and units we do not know: whole numbers stay whole, small ones keep
            // enough digits to tell apart
            default -> v == Math.rint(v) || a >= 1000 ? 0 : a >= 10 ? 1 : 2;
        };
    }

    private static String grouped(double v, int decimals) {
        String s = String.format(Locale.ROOT, "%,." + decimals + "f", v);
        // "-0" and "-0.00" would suggest a sign that is not there
        return s.matches("-0(\\.0+)?") ? s.substring(1) : s;
    }
}
