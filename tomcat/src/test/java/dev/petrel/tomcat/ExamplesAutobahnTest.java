package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.testkit.TomcatDistribution;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Autobahn|Testsuite's fuzzing client (through kosoku, a runner of Autobahn's own cases) against
 * the echo endpoint of Tomcat's {@code examples} webapp, once through Tomcat's NIO connector and
 * once through Petrel's, in one standalone Tomcat: every case must end on Petrel as well as on
 * Tomcat or better (OK or INFORMATIONAL, then NON-STRICT, UNIMPLEMENTED, FAILED, ERROR).
 *
 * <p>Run by {@code scripts/autobahn.sh --tomcat}, which installs kosoku and names it in
 * {@code petrel.kosoku}; without it the test is skipped. {@code petrel.autobahn.groups} chooses
 * the case groups (comma-separated globs, default all). Reports: {@code target/autobahn-tomcat/}.
 */
@Timeout(value = 40, unit = TimeUnit.MINUTES)
class ExamplesAutobahnTest {
    private static final String ECHO = "/examples/websocket/echoAnnotation";
    private static final List<String> VERDICTS = List.of("OK", "INFORMATIONAL", "NON-STRICT", "UNIMPLEMENTED", "FAILED", "ERROR");

    @Test
    void everyCaseEndsOnPetrelAsOnTomcatOrBetter() throws Exception {
        String kosoku = System.getProperty("petrel.kosoku");
        assumeTrue(kosoku != null && Files.isExecutable(Path.of(kosoku)), "kosoku not named in petrel.kosoku (scripts/autobahn.sh --tomcat does)");
        assumeTrue(TomcatDistribution.home() != null, "no Tomcat distribution unpacked (run through Maven)");
        String[] groups = System.getProperty("petrel.autobahn.groups", "1.*,2.*,3.*,4.*,5.*,6.*,7.*,9.*,10.*,12.*,13.*").split(",");
        Path out = Path.of("target", "autobahn-tomcat").toAbsolutePath();
        Files.createDirectories(out);
        int nio = TomcatDistribution.freePort();
        int petrel = TomcatDistribution.freePort();
        String connectors = "<Connector port=\"" + nio + "\" address=\"127.0.0.1\" protocol=\"HTTP/1.1\"/>\n"
                + "<Connector port=\"" + petrel + "\" address=\"127.0.0.1\" protocol=\"dev.petrel.tomcat.PetrelHttp11Protocol\" transport=\"nio\"/>\n";
        try (TomcatDistribution tomcat = TomcatDistribution.start(connectors, List.of("examples"), List.of(), petrel)) {
            Map<String, String> onTomcat = new TreeMap<>();
            Map<String, String> onPetrel = new TreeMap<>();
            for (String group : groups) {
                onTomcat.putAll(run(kosoku, out.resolve("tomcat-nio"), group, nio));
                onPetrel.putAll(run(kosoku, out.resolve("petrel-nio"), group, petrel));
            }
            // A case that ends worse on Petrel is run once more on both: the 9.* cases are timed, and on a
            // busy machine either connector misses a deadline now and then. Worse twice in a row fails.
            for (String kase : worseOnPetrel(onTomcat, onPetrel)) {
                onTomcat.putAll(run(kosoku, out.resolve("tomcat-nio-again"), kase, nio));
                onPetrel.putAll(run(kosoku, out.resolve("petrel-nio-again"), kase, petrel));
            }
            List<String> worse = new ArrayList<>();
            for (String kase : worseOnPetrel(onTomcat, onPetrel)) {
                worse.add(kase + ": " + onPetrel.getOrDefault(kase, "missing") + " on Petrel, " + onTomcat.get(kase) + " on Tomcat");
            }
            String summary = "autobahn through Tomcat (" + ECHO + "): tomcat-nio " + counts(onTomcat) + "; petrel-nio " + counts(onPetrel);
            Files.writeString(out.resolve("summary.txt"), summary + "\n" + String.join("\n", worse) + "\n");
            System.out.println(summary);
            assertThat(onTomcat).as("cases run").isNotEmpty();
            assertThat(onPetrel.keySet()).as("cases run on Petrel").isEqualTo(onTomcat.keySet());
            assertThat(worse).as("cases that end worse on Petrel than on Tomcat").isEmpty();
        }
    }

    /** The cases whose verdict on Petrel ranks below Tomcat's. */
    private static List<String> worseOnPetrel(Map<String, String> onTomcat, Map<String, String> onPetrel) {
        List<String> worse = new ArrayList<>();
        onTomcat.forEach((kase, reference) -> {
            if (rank(onPetrel.getOrDefault(kase, "missing")) > rank(reference)) worse.add(kase);
        });
        return worse;
    }

    /** Runs the cases of {@code group} against the echo on {@code port}: case id to verdict. */
    private static Map<String, String> run(String kosoku, Path dir, String group, int port) throws IOException, InterruptedException {
        Path report = dir.resolve(group.replace("*", "all"));
        Files.createDirectories(report);
        Process process = new ProcessBuilder(kosoku, "-m", "fuzzingclient", "-p", "2", "-i", group, "-o", report.toString(),
                "ws://127.0.0.1:" + port + ECHO).redirectErrorStream(true).redirectOutput(report.resolveSibling(report.getFileName() + ".txt").toFile()).start();
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor();
            throw new IOException("kosoku ran past 10 minutes on cases " + group + " against port " + port);
        }
        // kosoku exits 1 when a case did not pass; its index.json says which
        return verdicts(report.resolve("index.json"));
    }

    /** Each case's verdict in Autobahn's index.json, as scripts/autobahn.sh counts it: the close's when it failed. */
    private static Map<String, String> verdicts(Path index) throws IOException, InterruptedException {
        assertThat(index).as("kosoku's report").exists();
        Process python = new ProcessBuilder("python3", "-c", """
                import json, sys
                for agent in json.load(open(sys.argv[1])).values():
                    for case, result in agent.items():
                        behavior, close = result.get("behavior", "?"), result.get("behaviorClose", "?")
                        print(case, behavior if behavior in ("FAILED", "ERROR") or close not in ("FAILED", "ERROR") else close)
                """, index.toString()).redirectErrorStream(true).start();
        String output = new String(python.getInputStream().readAllBytes());
        assertThat(python.waitFor()).as(output).isZero();
        Map<String, String> verdicts = new TreeMap<>();
        for (String line : output.strip().split("\n")) {
            if (line.isBlank()) continue;
            String[] parts = line.split(" ", 2);
            verdicts.put(parts[0], parts[1]);
        }
        return verdicts;
    }

    private static int rank(String verdict) {
        return switch (verdict) {
            case "OK", "INFORMATIONAL" -> 0;
            case "NON-STRICT" -> 1;
            case "UNIMPLEMENTED" -> 2;
            case "FAILED" -> 3;
            default -> 4; // ERROR, or missing
        };
    }

    private static String counts(Map<String, String> verdicts) {
        StringBuilder text = new StringBuilder();
        for (String verdict : VERDICTS) {
            long n = verdicts.values().stream().filter(verdict::equals).count();
            if (n > 0) text.append(text.isEmpty() ? "" : ", ").append(verdict).append(' ').append(n);
        }
        return text.toString();
    }
}
