package dev.petrel.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code scripts/readme-figures.sh}: rewrites the figure blocks of README.md ({@link FiguresBlock})
 * from the lab's published results ({@link ResultsFile}), so that the figures a reader sees first
 * are the ones the lab measured, not copies that drift.
 *
 * <p>Usage: {@code ReadmeFigures [--check] README RESULTS}. With {@code --check} nothing is written
 * and the exit status says whether README is up to date (0) or not (1). 2 for a usage error, a
 * missing table or marker.
 */
public final class ReadmeFigures {
    private ReadmeFigures() {}

    /** Runs the rewrite; see the class comment for the arguments. */
    public static void main(String[] args) {
        System.exit(run(List.of(args)));
    }

    static int run(List<String> args) {
        List<String> paths = new ArrayList<>(args);
        boolean check = paths.remove("--check");
        if (paths.size() != 2 || paths.stream().anyMatch(p -> p.startsWith("-"))) {
            System.err.println("usage: ReadmeFigures [--check] README RESULTS");
            return 2;
        }
        Path readme = Path.of(paths.get(0));
        Path results = Path.of(paths.get(1));
        try {
            String before = Files.readString(readme, StandardCharsets.UTF_8);
            ResultsFile source = new ResultsFile(Files.readString(results, StandardCharsets.UTF_8));
            String after = FiguresBlock.rewrite(before, source::table);
            if (after.equals(before)) {
                System.err.println(readme + ": figures as in " + results);
                return 0;
            }
            if (check) {
                System.err.println(readme + ": figures differ from " + results + "; run scripts/readme-figures.sh");
                return 1;
            }
            Files.writeString(readme, after, StandardCharsets.UTF_8);
            System.err.println(readme + ": figures rewritten from " + results);
            return 0;
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("readme-figures: " + e.getMessage());
            return 2;
        }
    }
}
