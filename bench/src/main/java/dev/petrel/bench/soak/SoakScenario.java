package dev.petrel.bench.soak;

import dev.petrel.testkit.TomcatDistribution;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;

/**
 * The lab's {@code soak} scenario (issue 42): each server in turn with every protocol on, behind
 * the front ends operators run, under mixed open-loop traffic whose every byte is checked and with
 * faults injected at random from a printed seed, read every ten seconds; then judged
 * ({@link SoakJudge}) and reported ({@link SoakReport}). Every process is on loopback, started
 * here and stopped by its pid.
 */
public final class SoakScenario {
    private final SoakOptions options;
    private final Path java;
    private final Path libraries;
    private final Path certificatePem;
    private final Path privateKeyPem;
    private final SSLContext trust;
    private final Path dir;
    private final PrintStream out;

    /**
     * @param options        how to run
     * @param java           the {@code java} the servers run on; its {@code jcmd} reads them
     * @param libraries      a folder of jars with the lab and Petrel
     * @param certificatePem the lab certificate
     * @param privateKeyPem  its key
     * @param trust          a client context that trusts the lab certificate
     * @param dir            where the report and the servers' folders go
     * @param out            where the live lines go
     */
    public SoakScenario(SoakOptions options, Path java, Path libraries, Path certificatePem, Path privateKeyPem, SSLContext trust,
            Path dir, PrintStream out) {
        this.options = options;
        this.java = java;
        this.libraries = libraries;
        this.certificatePem = certificatePem;
        this.privateKeyPem = privateKeyPem;
        this.trust = trust;
        this.dir = dir;
        this.out = out;
    }

    /** Runs every server asked for and writes the report; whether every one kept every promise. */
    public boolean run() throws IOException, InterruptedException {
        Path files = dir.resolve("site").resolve("files");
        SoakContent.writeFiles(files);
        List<SoakRun> runs = new ArrayList<>();
        List<SoakVerdict> verdicts = new ArrayList<>();
        boolean passed = true;
        for (String label : options.servers()) {
            SoakServer.Kind kind = SoakServer.Kind.named(label);
            SoakPorts ports = kind.petrel
                    ? new SoakPorts(free(), free(), free(), free(), free(), free())
                    : new SoakPorts(free(), free(), -1, -1, free(), -1);
            SoakServer server = new SoakServer(kind, ports, java, libraries, files, certificatePem, privateKeyPem,
                    options.maxConnections(), dir.resolve("logs").resolve(label + ".log"));
            SoakRun run = new SoakRun(server, options, java.resolveSibling("jcmd"), trust, out);
            Thread cleanup = new Thread(server::close, "soak-cleanup");
            Runtime.getRuntime().addShutdownHook(cleanup);
            try {
                run.run();
            } finally {
                server.close();
                Runtime.getRuntime().removeShutdownHook(cleanup);
            }
            SoakVerdict verdict = SoakJudge.judge(run, options);
            verdict.lines.forEach(out::println);
            runs.add(run);
            verdicts.add(verdict);
            passed &= verdict.passed;
        }
        SoakReport.write(dir, runs, verdicts, options);
        return passed;
    }

    private static int free() throws IOException {
        return TomcatDistribution.freePort();
    }
}
