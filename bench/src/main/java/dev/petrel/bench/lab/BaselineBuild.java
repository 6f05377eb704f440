package dev.petrel.bench.lab;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

/** Compiles the C baseline server when it is missing or older than its source. */
final class BaselineBuild {
    private BaselineBuild() {}

    static void ensure(LabPaths paths, PrintStream err) throws IOException, InterruptedException {
        if (!Files.exists(paths.baselineSource())) throw new IOException("missing " + paths.baselineSource());
        if (Files.exists(paths.baselineBinary())
                && Files.getLastModifiedTime(paths.baselineBinary()).compareTo(Files.getLastModifiedTime(paths.baselineSource())) >= 0) {
            return;
        }
        Files.createDirectories(paths.baselineBinary().getParent());
        err.println("petrel bench: compiling the C baseline (gcc -O2)");
        CommandResult result = Commands.run(List.of("gcc", "-O2", "-Wall", "-Wextra", "-o", paths.baselineBinary().toString(),
                paths.baselineSource().toString()), Duration.ofMinutes(2), paths.baselineBinary().resolveSibling("gcc.log"));
        if (!result.ok()) throw new IOException("gcc could not compile the baseline:\n" + result.output());
    }
}
