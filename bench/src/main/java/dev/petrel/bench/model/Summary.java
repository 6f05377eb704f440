package dev.petrel.bench.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The median, min and max of one metric over passes.
 *
 * @param median the median (the mean of the middle two for an even count)
 * @param min the smallest value
 * @param max the largest value
 * @param count how many passes
 */
public record Summary(double median, double min, double max, int count) {
    /** Summarizes {@code values}; throws for an empty list. */
    public static Summary of(List<Double> values) {
        if (values.isEmpty()) throw new IllegalArgumentException("no values");
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Summary(median, sorted.getFirst(), sorted.getLast(), n);
    }
}
