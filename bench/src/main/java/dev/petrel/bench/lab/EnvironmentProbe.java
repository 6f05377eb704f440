package dev.petrel.bench.lab;

import dev.petrel.bench.model.Environment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Records what a run measured on: commit, JDK, kernel, CPU, tool versions. */
final class EnvironmentProbe {
    private EnvironmentProbe() {}

    static Environment probe(LabPaths paths, LabOptions options, CpuAssignment first, boolean cpusAlternate, List<String> args) {
        Map<String, String> tools = new LinkedHashMap<>();
        tools.put("ab", Commands.firstLine(List.of("ab", "-V")));
        tools.put("wrk", Commands.firstLine(List.of("wrk", "-v")));
        tools.put("h2load", Commands.firstLine(List.of("h2load", "--version")));
        tools.put("gcc", Commands.firstLine(List.of("gcc", "--version")));
        String commit = Commands.firstLine(List.of("git", "-C", paths.home().toString(), "rev-parse", "--short=12", "HEAD"));
        String dirty = Commands.firstLine(List.of("git", "-C", paths.home().toString(), "status", "--porcelain", "--untracked-files=no"));
        if (!dirty.equals("unavailable")) commit += "-dirty";
        return new Environment(
                OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).toString(),
                commit,
                System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version"),
                String.join(" ", ServerCatalog.JVM_OPTIONS),
                Commands.firstLine(List.of("uname", "-r")),
                cpuModel(),
                Runtime.getRuntime().availableProcessors(),
                first.serverCpu(),
                first.clientCpu(),
                tools,
                "./petrel bench " + String.join(" ", args),
                options.quick(),
                cpusAlternate);
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) return line.substring(line.indexOf(':') + 1).strip();
            }
        } catch (IOException e) {
            // not Linux, or no access
        }
        return "unknown";
    }
}
