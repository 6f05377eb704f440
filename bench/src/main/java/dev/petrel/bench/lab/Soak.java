package dev.petrel.bench.lab;

import dev.petrel.bench.soak.SoakOptions;
import dev.petrel.bench.soak.SoakScenario;
import dev.petrel.testkit.ApacheHttpd;
import dev.petrel.testkit.Haproxy;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * Runs the {@code soak} scenario ({@link SoakScenario}) for the lab: not per server like the
 * others, since each server runs with its own front ends for many minutes. Its report goes to
 * {@code bench/results/<timestamp>-soak/soak.md}, beside its CSV and charts.
 */
final class Soak {
    /** What it runs besides the servers, as the help names it ({@link Scenario#needs}). */
    static final List<String> NEEDS = List.of("httpd", "mod_jk", "haproxy", "h2load", "curl");

    private Soak() {}

    /** 0 when every server kept every promise, 1 otherwise or when the scenario could not run. */
    static int run(LabOptions options, LabPaths paths, PrintStream err) throws IOException, InterruptedException, LabException {
        String missing = ApacheHttpd.unavailableReason().or(Haproxy::unavailableReason).orElse(null);
        if (missing == null && !Lab.onPath("curl")) missing = "no curl on the PATH";
        if (missing != null) {
            err.println("petrel bench: soak: not run: " + missing);
            return 1;
        }
        List<String> servers = options.servers().stream().filter(SoakOptions.SERVERS::contains).toList();
        if (!options.servers().isEmpty() && servers.isEmpty() && options.scenarios().equals(List.of("soak"))) {
            throw new LabException("the soak runs " + String.join(" and ", SoakOptions.SERVERS) + ", not " + String.join(", ", options.servers()));
        }
        SoakOptions soak = SoakOptions.of(options.minutes(), options.quick(), options.seed(), servers);
        LabCertificate tls = LabCertificate.obtain(paths.tls(), paths.keytool());
        Path dir = paths.results().resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-soak");
        Files.createDirectories(dir);
        err.println("petrel bench: soak, " + soak.minutes() + " min on " + String.join(", ", soak.servers()) + (soak.quick() ? " (quick)" : "")
                + ", seed " + soak.seed() + "; results in " + paths.home().relativize(dir));
        SoakScenario scenario = new SoakScenario(soak, paths.java(), paths.libraries(), tls.certificatePem(),
                tls.privateKeyPem(), tls.clientContext(), dir, err);
        boolean passed = scenario.run();
        err.println("petrel bench: soak " + (passed ? "passed" : "FAILED") + "; report in " + paths.home().relativize(dir.resolve("soak.md")));
        return passed ? 0 : 1;
    }
}
