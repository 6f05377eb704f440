package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.http2.Http2Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * h2spec (the HTTP/2 conformance suite, strict cases included) against Catalina over HTTP/2 on
 * Petrel's connector, and against Catalina on Tomcat's own NIO connector with its
 * {@code Http2Protocol}, over TLS and as {@code h2c}: Petrel's must pass every case over TLS, and
 * every case but the documented {@code http2/3.5/2} on the plain port (which speaks HTTP/1.1 too,
 * and answers an invalid preface as an HTTP/1.1 request: docs/http2.md). Tomcat's figures are
 * printed beside and written to {@code target/h2spec-tomcat/summary.txt}; they are not asserted.
 *
 * <p>Run by {@code scripts/h2spec.sh --tomcat}, which builds h2spec and names it in
 * {@code petrel.h2spec}; without it the test is skipped.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class Http2SpecConnectorTest {
    private static final Pattern SUMMARY = Pattern.compile("(\\d+) tests, (\\d+) passed, (\\d+) skipped, (\\d+) failed");

    /** What h2spec's requests reach: the body read, 200 with a few bytes. */
    private static final class Ok extends HttpServlet {
        @Override
        protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
            req.getInputStream().readAllBytes();
            res.setContentType("text/plain");
            res.getWriter().print("ok");
        }
    }

    record Outcome(String name, int tests, int passed, List<String> failed) {
        @Override
        public String toString() {
            return name + " " + passed + "/" + tests + (failed.isEmpty() ? "" : "; failed: " + String.join(", ", failed));
        }
    }

    @TempDir
    static Path dir;

    @Test
    void catalinaOverPetrelsHttp2PassesH2spec() throws Exception {
        String h2spec = System.getProperty("petrel.h2spec");
        assumeTrue(h2spec != null && Files.isExecutable(Path.of(h2spec)), "h2spec not named in petrel.h2spec (scripts/h2spec.sh --tomcat does)");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")), "openssl is missing; install with: apt-get install -y openssl");
        SelfSignedCertificate certificate = SelfSignedCertificate.create(dir);
        Path out = Path.of("target", "h2spec-tomcat").toAbsolutePath();
        Files.createDirectories(out);
        List<Outcome> outcomes = new ArrayList<>();
        for (String connector : new String[] {"tomcat-nio", "petrel-nio"}) {
            for (boolean tls : new boolean[] {true, false}) {
                try (EmbeddedTomcat tomcat = start(connector, tls ? certificate : null)) {
                    outcomes.add(run(h2spec, out, connector + (tls ? " h2 (TLS)" : " h2c"), tomcat.port(), tls));
                }
            }
        }
        String summary = "h2spec through Tomcat: " + outcomes;
        Files.writeString(out.resolve("summary.txt"), summary + "\n");
        System.out.println(summary);
        Outcome petrelTls = outcomes.get(2);
        Outcome petrelH2c = outcomes.get(3);
        assertThat(petrelTls.tests()).as(petrelTls.toString()).isEqualTo(146);
        assertThat(petrelTls.failed()).as(petrelTls.toString()).isEmpty();
        assertThat(petrelH2c.tests()).as(petrelH2c.toString()).isEqualTo(146);
        assertThat(petrelH2c.failed()).as(petrelH2c + ": all but the documented invalid preface on the plain port")
                .allMatch(failure -> failure.startsWith("http2/3.5/2"));
    }

    private static EmbeddedTomcat start(String connectorName, SelfSignedCertificate certificate) throws IOException {
        boolean petrel = connectorName.startsWith("petrel");
        Connector connector = petrel ? new Connector(new PetrelHttp11Protocol()) : new Connector("HTTP/1.1");
        if (petrel) connector.setProperty("transport", "nio");
        if (certificate != null) certificate.serveOn(connector, petrel ? "jsse" : null);
        connector.addUpgradeProtocol(new Http2Protocol());
        return EmbeddedTomcat.create(connector).servlet("/", new Ok()).start();
    }

    /** Runs every case (-S: the strict ones too) against {@code port}; -o 2: seconds h2spec waits for each answer. */
    private static Outcome run(String h2spec, Path out, String name, int port, boolean tls) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(h2spec, "-S", "-h", "127.0.0.1", "-p", Integer.toString(port), "-o", "2"));
        if (tls) command.addAll(List.of("-t", "-k"));
        Path log = out.resolve(name.replaceAll("[^A-Za-z0-9-]+", "_") + ".txt");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor();
            throw new IOException("h2spec ran past 3 minutes against " + name);
        }
        String output = Files.readString(log);
        Matcher summary = SUMMARY.matcher(output);
        assertThat(summary.find()).as("h2spec's summary for " + name + " in " + log).isTrue();
        return new Outcome(name, Integer.parseInt(summary.group(1)), Integer.parseInt(summary.group(2)), failures(output));
    }

    private static final Pattern SECTION = Pattern.compile("^\\s+(\\d+(?:\\.\\d+)*)\\. ");
    private static final Pattern FAILED_CASE = Pattern.compile("^\\s+\u00d7 (\\d+):");

    /**
     * The failed cases h2spec lists after "Failures:", named as h2spec names them ({@code http2/3.5/2}):
     * a suite's heading at the margin, its numbered sections indented, each failed case marked with a cross.
     */
    private static List<String> failures(String output) {
        List<String> failed = new ArrayList<>();
        int start = output.indexOf("Failures:");
        if (start < 0) return failed;
        String suite = "";
        String section = "";
        for (String line : output.substring(start + "Failures:".length()).split("\n")) {
            if (line.isBlank() || line.startsWith("Finished")) continue;
            if (!Character.isWhitespace(line.charAt(0))) {
                suite = line.startsWith("HPACK") ? "hpack" : line.startsWith("Generic") ? "generic" : "http2";
                continue;
            }
            Matcher heading = SECTION.matcher(line);
            if (heading.find()) section = heading.group(1);
            Matcher kase = FAILED_CASE.matcher(line);
            if (kase.find()) failed.add(suite + "/" + section + "/" + kase.group(1));
        }
        return failed;
    }
}
