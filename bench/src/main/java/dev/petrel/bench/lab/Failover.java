package dev.petrel.bench.lab;

import dev.petrel.bench.failover.FailoverScenario;
import dev.petrel.testkit.ApacheHttpd;
import dev.petrel.testkit.Haproxy;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs the {@code failover} scenario ({@link FailoverScenario}) for the lab: not per server like the
 * others, since it measures a cluster of backends behind balancers. Its lines go to the console and
 * to {@code bench/results/<timestamp>-failover/failover.txt}; the backends' folders are removed
 * after a run that kept every promise and kept for reading after one that did not.
 */
final class Failover {
    /** What it runs besides the backends, as the help names it ({@link Scenario#needs}). */
    static final List<String> NEEDS = List.of("httpd", "mod_jk", "haproxy", TomcatScenario.TOMCAT_DISTRIBUTION);

    private Failover() {}

    /** 0 when every case kept its promises, 1 otherwise or when the scenario could not run. */
    static int run(boolean quick, LabPaths paths, PrintStream err) throws IOException, InterruptedException {
        Path tomcat = paths.tomcatHome();
        String missing = tomcat == null ? "no Tomcat distribution under bench/target/tomcat-dist (build the bench module)"
                : ApacheHttpd.unavailableReason().or(Haproxy::unavailableReason).orElse(null);
        if (missing != null) {
            err.println("petrel bench: failover: not run: " + missing);
            return 1;
        }
        Path dir = paths.results().resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-failover");
        Files.createDirectories(dir);
        err.println("petrel bench: failover" + (quick ? " (quick)" : "") + "; results in " + paths.home().relativize(dir));
        FailoverScenario scenario = new FailoverScenario(quick, tomcat, paths.java(), paths.libraries(), dir.resolve("work"), err);
        List<String> lines = scenario.run();
        Files.write(dir.resolve("failover.txt"), lines);
        if (scenario.passed()) delete(dir.resolve("work"));
        err.println("petrel bench: failover results in " + paths.home().relativize(dir.resolve("failover.txt")));
        return scenario.passed() ? 0 : 1;
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
