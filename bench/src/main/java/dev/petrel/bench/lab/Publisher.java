package dev.petrel.bench.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * Copies a run's report into the repository: {@code bench/RESULTS.md} and its charts and CSV in
 * {@code bench/RESULTS/}, with the image links rewritten to match. That is what README links to.
 */
final class Publisher {
    private Publisher() {}

    static void publish(Path run, Path bench) throws IOException {
        Path target = bench.resolve("RESULTS");
        if (Files.isDirectory(target)) {
            try (Stream<Path> old = Files.list(target)) {
                for (Path file : old.toList()) Files.delete(file);
            }
        }
        Files.createDirectories(target);
        try (Stream<Path> files = Files.list(run)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".svg") || name.endsWith(".csv")) {
                    Files.copy(file, target.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        String report = Files.readString(run.resolve("report.md"));
        report = report.replaceAll("\\]\\((?!https?:|/|#)([^)]+\\.(svg|csv))\\)", "](RESULTS/$1)");
        Files.writeString(bench.resolve("RESULTS.md"), report);
    }
}
