package dev.petrel.bench.lab;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Compiles the C floors when missing or older than their sources: the do-nothing HTTP server
 * ({@code baseline-c}) and the do-nothing WebSocket echo ({@code baseline-c-ws}).
 */
final class BaselineBuild {
    private BaselineBuild() {}

    static void ensure(LabPaths paths, PrintStream err) throws IOException, InterruptedException {
        ensure(paths.baselineSource(), paths.baselineBinary(), "the C baseline", err);
        ensure(paths.webSocketFloorSource(), paths.webSocketFloorBinary(), "the C WebSocket floor", err);
    }

    private static void ensure(Path source, Path binary, String what, PrintStream err) throws IOException, InterruptedException {
        if (!Files.exists(source)) throw new IOException("missing " + source);
        if (Files.exists(binary) && Files.getLastModifiedTime(binary).compareTo(Files.getLastModifiedTime(source)) >= 0) {
            return;
        }
        Files.createDirectories(binary.getParent());
        err.println("petrel bench: compiling " + what + " (gcc -O2)");
        CommandResult result = Commands.run(List.of("gcc", "-O2", "-Wall", "-Wextra", "-o", binary.toString(), source.toString()),
                Duration.ofMinutes(2), binary.resolveSibling(binary.getFileName() + "-gcc.log"));
        if (!result.ok()) throw new IOException("gcc could not compile " + what + ":\n" + result.output());
    }
}
