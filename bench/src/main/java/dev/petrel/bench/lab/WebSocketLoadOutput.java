package dev.petrel.bench.lab;

import java.util.HashMap;
import java.util.Map;

/**
 * What {@link WebSocketLoad} printed: for each step, by its spec, either its figures or why it
 * failed. Lines that are no step's (the JVM's warnings) are ignored.
 */
final class WebSocketLoadOutput {
    /** One step's line: its figures by key, or {@code failure} when it failed (then no figures). */
    record StepResult(Map<String, Double> figures, String failure) {
        StepResult {
            figures = Map.copyOf(figures);
        }

        boolean ok() {
            return failure == null;
        }

        /** The figure {@code key}; {@link IllegalArgumentException} when the line has none. */
        double figure(String key) {
            Double value = figures.get(key);
            if (value == null) throw new IllegalArgumentException("WebSocketLoad printed no " + key + " (" + figures.keySet() + ")");
            return value;
        }
    }

    private final Map<String, StepResult> steps;

    private WebSocketLoadOutput(Map<String, StepResult> steps) {
        this.steps = Map.copyOf(steps);
    }

    /** Reads the tool's output. */
    static WebSocketLoadOutput parse(String output) {
        Map<String, StepResult> steps = new HashMap<>();
        for (String line : output.lines().toList()) {
            int space = line.indexOf(' ');
            if (space <= 0 || !isStep(line.substring(0, space))) continue;
            String spec = line.substring(0, space);
            String rest = line.substring(space + 1).strip();
            if (rest.startsWith("failed:")) {
                steps.put(spec, new StepResult(Map.of(), rest.substring("failed:".length()).strip()));
                continue;
            }
            Map<String, Double> figures = new HashMap<>();
            for (String pair : rest.split("\\s+")) {
                int equals = pair.indexOf('=');
                if (equals <= 0) continue;
                try {
                    figures.put(pair.substring(0, equals), Double.parseDouble(pair.substring(equals + 1)));
                } catch (NumberFormatException notAFigure) {
                    // a value that is no number is no figure
                }
            }
            steps.put(spec, new StepResult(figures, null));
        }
        return new WebSocketLoadOutput(steps);
    }

    private static boolean isStep(String word) {
        return word.equals("check") || word.startsWith("round-trip:") || word.startsWith("rate:");
    }

    /** The result of the step {@code spec}, or {@code null} when the tool printed none (it was stopped, or failed to start). */
    StepResult step(String spec) {
        return steps.get(spec);
    }
}
