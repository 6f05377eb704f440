package dev.petrel.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A tiny writer of standalone SVG 1.1: the document frame, a few shapes and escaped text. Styling
 * is done with presentation attributes only (no CSS, no external fonts) so the files look the same
 * when opened directly, embedded with {@code <img>} or shown on GitHub.
 */
final class Svg {
    static final String NS = "http://www.w3.org/2000/svg";
    /** Generic families only: every viewer has one, nothing is fetched. */
    static final String FONT = "Helvetica, Arial, sans-serif";
    static final String TEXT = "#222222";
    static final String MUTED = "#666666";
    static final String GRID = "#e3e3e3";
    static final String AXIS = "#444444";

    private final StringBuilder out = new StringBuilder(4096);

    /** Starts a document of {@code width × height} with a title (shown as tooltip and read by screen readers). */
    Svg(double width, double height, String title, String description) {
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<svg xmlns=\"").append(NS).append("\" version=\"1.1\" width=\"").append(n(width))
                .append("\" height=\"").append(n(height)).append("\" viewBox=\"0 0 ").append(n(width)).append(' ')
                .append(n(height)).append("\" font-family=\"").append(FONT).append("\" font-size=\"12\" fill=\"")
                .append(TEXT).append("\">\n")
                .append("<title>").append(Escape.xml(title)).append("</title>\n")
                .append("<desc>").append(Escape.xml(description)).append("</desc>\n");
        // an opaque background: viewers with a dark theme would otherwise show dark text on black
        rect(0, 0, width, height, "#ffffff");
    }

    /** A filled rectangle; {@code attributes} are name/value pairs. */
    Svg rect(double x, double y, double w, double h, String fill, String... attributes) {
        out.append("<rect x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" width=\"").append(n(w))
                .append("\" height=\"").append(n(h)).append("\" fill=\"").append(fill).append('"');
        return close(attributes);
    }

    /** A line. */
    Svg line(double x1, double y1, double x2, double y2, String stroke, double strokeWidth, String... attributes) {
        out.append("<line x1=\"").append(n(x1)).append("\" y1=\"").append(n(y1)).append("\" x2=\"").append(n(x2))
                .append("\" y2=\"").append(n(y2)).append("\" stroke=\"").append(stroke).append("\" stroke-width=\"")
                .append(n(strokeWidth)).append('"');
        return close(attributes);
    }

    /** An open polyline through {@code points} (x, y pairs). */
    Svg polyline(List<double[]> points, String stroke, double strokeWidth, String... attributes) {
        out.append("<polyline fill=\"none\" stroke=\"").append(stroke).append("\" stroke-width=\"")
                .append(n(strokeWidth)).append("\" points=\"");
        for (int i = 0; i < points.size(); i++) {
            out.append(i == 0 ? "" : " ").append(n(points.get(i)[0])).append(',').append(n(points.get(i)[1]));
        }
        out.append('"');
        return close(attributes);
    }

    /** A closed polygon. */
    Svg polygon(List<double[]> points, String fill, String... attributes) {
        out.append("<polygon fill=\"").append(fill).append("\" points=\"");
        for (int i = 0; i < points.size(); i++) {
            out.append(i == 0 ? "" : " ").append(n(points.get(i)[0])).append(',').append(n(points.get(i)[1]));
        }
        out.append('"');
        return close(attributes);
    }

    /** A circle. */
    Svg circle(double cx, double cy, double r, String fill, String... attributes) {
        out.append("<circle cx=\"").append(n(cx)).append("\" cy=\"").append(n(cy)).append("\" r=\"").append(n(r))
                .append("\" fill=\"").append(fill).append('"');
        return close(attributes);
    }

    /** Text, escaped; {@code attributes} such as {@code text-anchor}, {@code font-weight}. */
    Svg text(double x, double y, String text, String... attributes) {
        out.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(y)).append('"');
        attributes(attributes);
        out.append('>').append(Escape.xml(text)).append("</text>\n");
        return this;
    }

    /** A chart's title and subtitle at the top left. */
    Svg heading(double x, String title, String subtitle) {
        text(x, 26, title, "font-size", "16", "font-weight", "bold");
        if (subtitle != null) text(x, 46, subtitle, "fill", MUTED);
        return this;
    }

    /** The finished document. */
    String finish() {
        return out.append("</svg>\n").toString();
    }

    /**
     * An estimate of how wide {@code text} renders at {@code size} px: without font metrics we
     * take the average sans-serif advance and err wide, so labels get room rather than overlap.
     */
    static double width(String text, double size) {
        return text.length() * size * 0.6;
    }

    /** A coordinate: one decimal at most, never an exponent, never a locale's comma. */
    static String n(double v) {
        String s = String.format(Locale.ROOT, "%.1f", v);
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }

    private Svg close(String... attributes) {
        attributes(attributes);
        out.append("/>\n");
        return this;
    }

    private void attributes(String... pairs) {
        if (pairs.length % 2 != 0) throw new IllegalArgumentException("attributes come in name/value pairs");
        for (int i = 0; i < pairs.length; i += 2) {
            out.append(' ').append(pairs[i]).append("=\"").append(Escape.xml(pairs[i + 1])).append('"');
        }
    }

    /**
     * An axis from 0 to a round maximum in round steps (1, 2 or 5 times a power of ten), so the
     * tick labels are numbers a reader can use. Starting at 0 keeps bar lengths honest.
     *
     * @param max the axis maximum, at least the largest value
     * @param step the distance between ticks
     */
    record Scale(double max, double step) {
        static Scale of(double largest, int ticks) {
            if (!(largest > 0) || !Double.isFinite(largest)) return new Scale(1, 0.2);
            double raw = largest / ticks;
            double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
            double norm = raw / magnitude;
            double step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * magnitude;
            return new Scale(Math.ceil(largest / step - 1e-9) * step, step);
        }

        /** Tick values from 0 to {@link #max()}, computed by multiplication so they do not drift. */
        List<Double> ticks() {
            List<Double> ticks = new ArrayList<>();
            long count = Math.round(max / step);
            for (long i = 0; i <= count; i++) ticks.add(i * step);
            return ticks;
        }

        /** {@code v} as a fraction of the axis, clamped to [0, 1]. */
        double fraction(double v) {
            return Math.max(0, Math.min(1, v / max));
        }
    }
}
