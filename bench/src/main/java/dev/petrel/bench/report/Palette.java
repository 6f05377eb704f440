package dev.petrel.bench.report;

import dev.petrel.bench.model.ServerInfo.Group;

/**
 * Colours and marker shapes by group, the same in every chart: the baseline grey (it is a
 * reference, not a contender), Petrel one strong blue, peers orange. Lines of one group use
 * shades of its colour and different markers so several Petrel transports stay apart.
 */
final class Palette {
    private static final String[] BASELINE = {"#8a8a8a", "#5a5a5a", "#b4b4b4"};
    private static final String[] PETREL = {"#1f5fbf", "#0b3a80", "#5b9be8", "#163f6e"};
    private static final String[] PEER = {"#e07b00", "#9c5200", "#f2a541", "#c44e00", "#ffc46b"};
    private static final String[] UNKNOWN = {"#8e44ad", "#5e2d73"};

    /** Marker shapes, cycled within a group. */
    enum Marker { CIRCLE, SQUARE, TRIANGLE, DIAMOND }

    private Palette() {}

    /** The group's main colour, for bars and legends. */
    static String color(Group group) {
        return shades(group)[0];
    }

    /** The colour of the {@code index}-th line of a group. */
    static String color(Group group, int index) {
        String[] shades = shades(group);
        return shades[index % shades.length];
    }

    /** The marker of the {@code index}-th line of a group. */
    static Marker marker(int index) {
        return Marker.values()[index % Marker.values().length];
    }

    /** Dashes for a group's lines: the baseline dotted, so it reads as a reference line. */
    static String dash(Group group) {
        return group == Group.BASELINE ? "3 3" : null;
    }

    /** Draws {@code marker} centred on (x, y). */
    static void draw(Svg svg, Marker marker, double x, double y, String color) {
        double r = 4.5;
        switch (marker) {
            case CIRCLE -> svg.circle(x, y, r, color, "stroke", "#ffffff", "stroke-width", "1");
            case SQUARE -> svg.rect(x - r + 0.5, y - r + 0.5, 2 * r - 1, 2 * r - 1, color, "stroke", "#ffffff",
                    "stroke-width", "1");
            case TRIANGLE -> svg.polygon(java.util.List.of(new double[] {x, y - r - 1}, new double[] {x + r + 0.5, y + r},
                    new double[] {x - r - 0.5, y + r}), color, "stroke", "#ffffff", "stroke-width", "1");
            case DIAMOND -> svg.polygon(java.util.List.of(new double[] {x, y - r - 1}, new double[] {x + r + 1, y},
                    new double[] {x, y + r + 1}, new double[] {x - r - 1, y}), color, "stroke", "#ffffff",
                    "stroke-width", "1");
        }
    }

    private static String[] shades(Group group) {
        if (group == null) return UNKNOWN;
        return switch (group) {
            case BASELINE -> BASELINE;
            case PETREL -> PETREL;
            case PEER -> PEER;
        };
    }
}
