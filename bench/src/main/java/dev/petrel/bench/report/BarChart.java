package dev.petrel.bench.report;

import dev.petrel.bench.model.ServerInfo.Group;
import dev.petrel.bench.model.Summary;
import java.util.Comparator;
import java.util.List;

/**
 * Horizontal bar charts, a band per server: either one bar per band (the primary metric's median
 * with a min–max whisker) or several (one per percentile, labelled by key). Bars start at zero so
 * their lengths compare honestly; the value is written at each bar's end so nobody has to read it
 * off the axis.
 */
final class BarChart {
    private static final double PAD = 16;
    private static final double TOP = 64;

    /**
     * A server's band.
     *
     * @param label the server's name (and mark)
     * @param bold whether to draw the label bold (Petrel)
     * @param group the colour
     * @param bars the bars; when empty, {@code absent} is written instead
     * @param absent why there is no bar: "no result" or "not applicable"
     */
    record Band(String label, boolean bold, Group group, List<Bar> bars, String absent) {}

    /**
     * A bar.
     *
     * @param key its label beside the bar when a band has several (e.g. {@code p99}), or {@code null}
     * @param summary median (bar), min and max (whisker)
     * @param opacity lighter for lower percentiles, so a band reads as a progression
     */
    record Bar(String key, Summary summary, double opacity) {}

    private BarChart() {}

    /**
     * Renders the chart.
     *
     * @param whiskers whether to draw min–max whiskers (bars with one pass get none)
     */
    static String render(String title, String subtitle, String axisTitle, String unit, List<Band> bands,
                         boolean whiskers) {
        boolean keyed = bands.stream().flatMap(b -> b.bars().stream()).anyMatch(b -> b.key() != null);
        double barH = keyed ? 12 : 18, gap = 3, bandPad = keyed ? 14 : 8;
        double keyW = bands.stream().flatMap(b -> b.bars().stream()).filter(b -> b.key() != null)
                .mapToDouble(b -> Svg.width(b.key(), 10) + 8).max().orElse(0);
        double labelW = bands.stream().mapToDouble(b -> Svg.width(b.label(), 12) * (b.bold() ? 1.1 : 1)).max().orElse(40);
        double largest = bands.stream().flatMap(b -> b.bars().stream())
                .mapToDouble(b -> whiskers ? Math.max(b.summary().max(), b.summary().median()) : b.summary().median())
                .max().orElse(0);
        Svg.Scale scale = Svg.Scale.of(largest, 5);
        double valueW = Math.max(40, bands.stream().flatMap(b -> b.bars().stream())
                .mapToDouble(b -> Svg.width(Format.value(b.summary().median(), unit), 11) + 12).max().orElse(0));

        double left = PAD + labelW + 10 + keyW;
        double width = Math.max(760, Math.max(left + 380 + valueW + PAD,
                Math.max(Svg.width(title, 16), Svg.width(subtitle, 12)) + 2 * PAD));
        double plotW = width - PAD - valueW - left;
        double[] heights = bands.stream().mapToDouble(b -> Math.max(1, b.bars().size()) * (barH + gap) - gap + bandPad)
                .toArray();
        double axisY = TOP;
        for (double h : heights) axisY += h;
        double height = axisY + 70;

        Svg svg = new Svg(width, height, title, subtitle);
        svg.heading(PAD, title, subtitle);
        for (double t : scale.ticks()) {
            double x = left + plotW * scale.fraction(t);
            svg.line(x, TOP - 4, x, axisY, Svg.GRID, 1);
            svg.line(x, axisY, x, axisY + 4, Svg.AXIS, 1);
            svg.text(x, axisY + 17, Format.tick(t, scale.step()), "text-anchor", "middle", "font-size", "11");
        }

        double y = TOP;
        for (int i = 0; i < bands.size(); i++) {
            Band band = bands.get(i);
            double h = heights[i];
            if (keyed && i > 0) svg.line(PAD, y, width - PAD, y, "#f0f0f0", 1);
            svg.text(left - keyW - 10, y + h / 2 + 4, band.label(), "text-anchor", "end",
                    "font-weight", band.bold() ? "bold" : "normal");
            if (band.bars().isEmpty()) {
                svg.text(left + 6, y + h / 2 + 4, band.absent(), "fill", Svg.MUTED, "font-style", "italic");
            }
            for (int j = 0; j < band.bars().size(); j++) {
                bar(svg, band, band.bars().get(j), y + bandPad / 2 + j * (barH + gap), barH, left, plotW, scale, unit,
                        whiskers);
            }
            y += h;
        }

        svg.line(left, axisY, left + plotW, axisY, Svg.AXIS, 1);
        svg.line(left, TOP - 4, left, axisY, Svg.AXIS, 1);
        svg.text(left + plotW / 2, axisY + 35, axisTitle, "text-anchor", "middle");
        legend(svg, left, axisY + 56, bands);
        return svg.finish();
    }

    private static void bar(Svg svg, Band band, Bar bar, double top, double barH, double left, double plotW,
                            Svg.Scale scale, String unit, boolean whiskers) {
        Summary s = bar.summary();
        double end = left + plotW * scale.fraction(s.median());
        double mid = top + barH / 2;
        svg.rect(left, top, Math.max(0.5, end - left), barH, Palette.color(band.group()),
                "fill-opacity", Svg.n(bar.opacity()));
        if (bar.key() != null) {
            svg.text(left - 6, mid + 3.5, bar.key(), "text-anchor", "end", "font-size", "10", "fill", Svg.MUTED);
        }
        double labelX = end;
        if (whiskers && s.count() > 1) {
            double lo = left + plotW * scale.fraction(s.min()), hi = left + plotW * scale.fraction(s.max());
            svg.line(lo, mid, hi, mid, Svg.TEXT, 1.2);
            svg.line(lo, mid - 5, lo, mid + 5, Svg.TEXT, 1.2);
            svg.line(hi, mid - 5, hi, mid + 5, Svg.TEXT, 1.2);
            labelX = Math.max(end, hi);
        }
        svg.text(labelX + 5, mid + 4, Format.value(s.median(), unit), "font-size", barH < 14 ? "10" : "11");
    }

    /** One swatch per group that appears, in table order. */
    static void legend(Svg svg, double x, double y, List<Band> bands) {
        // a list, not an EnumSet: an undescribed server's group is null, and the enum's order is not the table's
        List<Group> groups = bands.stream().map(Band::group).distinct()
                .sorted(Comparator.comparingInt(Aggregation::groupRank)).toList();
        for (Group g : groups) x = swatch(svg, x, y, Palette.color(g), Format.group(g));
    }

    private static double swatch(Svg svg, double x, double y, String color, String label) {
        svg.rect(x, y - 10, 12, 12, color);
        svg.text(x + 17, y, label);
        return x + 17 + Svg.width(label, 12) + 18;
    }
}
