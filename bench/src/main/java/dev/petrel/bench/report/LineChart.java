package dev.petrel.bench.report;

import dev.petrel.bench.model.ServerInfo.Group;
import java.util.ArrayList;
import java.util.List;

/**
 * A metric across a scenario's variants (e.g. users in a ramp), a line per server. The x axis is
 * categorical (variants are labels like {@code 1000 users}, evenly spaced in the scenario's order);
 * the y axis starts at zero. A variant a server has no result for leaves a gap in its line rather
 * than a misleading straight segment.
 */
public final class LineChart {
    private static final double PAD = 16;
    private static final double TOP = 64;
    private static final double PLOT_H = 280;
    private static final double MAX_PLOT_W = 960;
    private static final double MIN_LABEL_SLOT = 40;

    /**
     * A server's line.
     *
     * @param name the legend entry
     * @param group its colour family
     * @param index its rank within the group, for shade and marker
     * @param values per category, {@code null} where there is no result
     */
    public record Series(String name, Group group, int index, List<Double> values) {}

    private LineChart() {}

    /** Renders the chart. */
    public static String render(String title, String subtitle, String axisTitle, List<String> categories, List<Series> series) {
        double largest = series.stream().flatMap(s -> s.values().stream()).filter(v -> v != null)
                .mapToDouble(Double::doubleValue).max().orElse(0);
        Svg.Scale scale = Svg.Scale.of(largest, 5);
        double tickW = scale.ticks().stream().mapToDouble(t -> Svg.width(Format.tick(t, scale.step()), 11)).max()
                .orElse(20);
        double left = PAD + 22 + tickW + 8;
        // a long series (a soak's minutes) stays a page wide, with every k-th label
        double plotW = Math.min(MAX_PLOT_W, Math.max(420, categories.size() * 90));
        double slot = plotW / Math.max(1, categories.size());
        int labelEvery = (int) Math.ceil(MIN_LABEL_SLOT / slot);
        double labelW = categories.stream().mapToDouble(c -> Svg.width(c, 11)).max().orElse(0);
        boolean slanted = labelW > slot * labelEvery - 8;
        if (slanted) {
            // a label slanted by 30° and ending at its tick reaches cos 30° of its width to the left:
            // the first one must not leave the picture
            left = Math.max(left, PAD + 0.87 * Svg.width(categories.getFirst(), 11) - slot / 2);
        }
        double bottom = slanted ? labelW * 0.55 + 24 : 34;
        double legendX = left + plotW + 28;
        double legendW = 34 + series.stream().mapToDouble(s -> Svg.width(s.name(), 12)).max().orElse(0);
        double width = Math.max(legendX + legendW + PAD, Math.max(Svg.width(title, 16), Svg.width(subtitle, 12)) + 2 * PAD);
        double axisY = TOP + PLOT_H;
        double height = Math.max(axisY + bottom + 12, TOP + series.size() * 20 + 24);

        Svg svg = new Svg(width, height, title, subtitle);
        svg.heading(PAD, title, subtitle);
        for (double t : scale.ticks()) {
            double y = axisY - PLOT_H * scale.fraction(t);
            svg.line(left, y, left + plotW, y, Svg.GRID, 1);
            svg.text(left - 7, y + 4, Format.tick(t, scale.step()), "text-anchor", "end", "font-size", "11");
        }
        svg.line(left, TOP, left, axisY, Svg.AXIS, 1);
        svg.line(left, axisY, left + plotW, axisY, Svg.AXIS, 1);
        double axisTitleX = PAD + 10, axisTitleY = TOP + PLOT_H / 2;
        svg.text(axisTitleX, axisTitleY, axisTitle, "text-anchor", "middle",
                "transform", "rotate(-90 " + Svg.n(axisTitleX) + " " + Svg.n(axisTitleY) + ")");
        for (int i = 0; i < categories.size(); i++) {
            double x = xOf(i, left, slot);
            if (i % labelEvery != 0) continue;
            svg.line(x, axisY, x, axisY + 4, Svg.AXIS, 1);
            if (slanted) {
                double ly = axisY + 14;
                svg.text(x, ly, categories.get(i), "text-anchor", "end", "font-size", "11",
                        "transform", "rotate(-30 " + Svg.n(x) + " " + Svg.n(ly) + ")");
            } else {
                svg.text(x, axisY + 18, categories.get(i), "text-anchor", "middle", "font-size", "11");
            }
        }

        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            String color = Palette.color(s.group(), s.index());
            String dash = Palette.dash(s.group());
            String[] dashAttr = dash == null ? new String[0] : new String[] {"stroke-dasharray", dash};
            List<double[]> segment = new ArrayList<>();
            List<double[]> points = new ArrayList<>();
            for (int i = 0; i <= categories.size(); i++) {
                Double v = i < categories.size() ? s.values().get(i) : null;
                if (v != null) {
                    double[] p = {xOf(i, left, slot), axisY - PLOT_H * scale.fraction(v)};
                    segment.add(p);
                    points.add(p);
                } else {
                    if (segment.size() > 1) svg.polyline(segment, color, 2, dashAttr);
                    segment = new ArrayList<>();
                }
            }
            // markers on a long series would hide its line
            if (labelEvery == 1) for (double[] p : points) Palette.draw(svg, Palette.marker(s.index()), p[0], p[1], color);

            double ly = TOP + 8 + k * 20;
            svg.line(legendX, ly, legendX + 24, ly, color, 2, dashAttr);
            Palette.draw(svg, Palette.marker(s.index()), legendX + 12, ly, color);
            svg.text(legendX + 32, ly + 4, s.name(), "font-weight", s.group() == Group.PETREL ? "bold" : "normal");
        }
        return svg.finish();
    }

    private static double xOf(int i, double left, double slot) {
        return left + slot * (i + 0.5);
    }
}
