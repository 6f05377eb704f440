package dev.petrel.bench.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How the many connections of one fault ended, counted by outcome ({@code still open at the end},
 * {@code answered "HTTP/1.1 408 Request Timeout"}, ...), for a detail that stays one line however
 * many connections there were. Safe to add to from the fault's threads.
 */
final class Outcomes {
    private final Map<String, Integer> counts = new TreeMap<>();

    /** Counts one connection that ended as {@code outcome}. */
    synchronized void add(String outcome) {
        counts.merge(outcome, 1, Integer::sum);
    }

    /** Whether none was counted. */
    synchronized boolean isEmpty() {
        return counts.isEmpty();
    }

    /** How many ended as {@code outcome}. */
    synchronized int count(String outcome) {
        return counts.getOrDefault(outcome, 0);
    }

    /** E.g. {@code 12 still open at the end, 4 answered "HTTP/1.1 408 Request Timeout"}: the commonest first. */
    @Override
    public synchronized String toString() {
        if (counts.isEmpty()) return "none";
        List<Map.Entry<String, Integer>> entries = new ArrayList<>(counts.entrySet());
        entries.sort(Map.Entry.<String, Integer>comparingByValue().reversed());
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, Integer> entry : entries) parts.add(entry.getValue() + " " + entry.getKey());
        return String.join(", ", parts);
    }
}
