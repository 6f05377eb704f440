package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./petrel bench --help}: one file, printed by the launcher without building the lab and by
 * the lab itself, naming every scenario with what it needs and every server of the catalog.
 */
class LabHelpTest {
    private static final Path FILE = Path.of("src/main/resources/dev/petrel/bench/lab/help.txt");

    @TempDir
    Path home;

    private LabPaths paths() {
        return new LabPaths(home, Path.of("/jdk/bin/java"));
    }

    private static String help() throws Exception {
        return Files.readString(FILE);
    }

    /** The part of the help from the line starting with {@code from} to the one starting with {@code to}. */
    private static String section(String from, String to) throws Exception {
        String help = help();
        int start = help.indexOf("\n" + from);
        int end = help.indexOf("\n" + to, start + 1);
        assertThat(start).as("the help's section %s", from).isNotNegative();
        assertThat(end).as("the end of the help's section %s", from).isPositive();
        return help.substring(start + 1, end + 1);
    }

    @Test
    void everyScenarioIsListedWithWhatItNeeds() throws Exception {
        String scenarios = section("Scenarios", "Every scenario but failover");
        List<String> names = new ArrayList<>(LabOptions.SCENARIOS);
        names.add("all");
        List<String> listed = new ArrayList<>();
        Matcher entry = Pattern.compile("(?m)^  ([a-z0-9-]+) ").matcher(scenarios);
        while (entry.find()) listed.add(entry.group(1));
        assertThat(listed).as("the scenarios of the help, in order").containsExactlyElementsOf(names);

        LabOptions options = LabOptions.parse(List.of("all"));
        for (String name : LabOptions.SCENARIOS) {
            int start = scenarios.indexOf("\n  " + name + " ");
            int next = scenarios.indexOf("\n  ", start + 1);
            while (next >= 0 && scenarios.charAt(next + 3) == ' ') next = scenarios.indexOf("\n  ", next + 1); // continuation lines
            String text = scenarios.substring(start, next).replaceAll("\\s+", " ");
            List<String> needs = Lab.needs(name, options, paths());
            assertThat(text).as("the help's %s", name).contains("needs: ");
            String needsClause = text.substring(text.indexOf("needs: "));
            if (needs.isEmpty()) assertThat(needsClause).as("the help's %s", name).startsWith("needs: nothing more");
            for (String need : needs) assertThat(needsClause).as("what the help's %s needs", name).contains(need);
        }
        String perServer = section("Every scenario but failover", "Servers").replaceAll("\\s+", " ");
        for (String need : Lab.PER_SERVER_NEEDS) assertThat(perServer).contains(need);
    }

    @Test
    void everyServerOfTheCatalogIsListedAndNoOther() throws Exception {
        Set<String> listed = new LinkedHashSet<>();
        for (String line : section("Servers", "Options").lines().skip(1).toList()) {
            if (!line.startsWith("  ") || line.startsWith("   ")) continue; // a description
            for (String name : line.strip().split(" {2,}")[0].split(",")) {
                if (!name.isBlank()) listed.add(name.strip());
            }
        }
        assertThat(listed).as("the servers of the help").contains("before-" + "petrel-*");
        listed.remove("before-petrel-*");

        assertThat(listed).containsExactlyInAnyOrderElementsOf(ServerCatalog.all(paths()).stream().map(ServerSpec::name).toList());
    }

    @Test
    void theLabPrintsTheFileOnOutWhenAskedAndOnErrWithoutAScenario() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);

        assertThat(Lab.run(List.of("latency", "--help"), o, e)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(help());
        assertThat(err.size()).isZero();
        out.reset();
        assertThat(Lab.run(List.of(), o, e)).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(help());
        assertThat(out.size()).isZero();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theLauncherPrintsItWithoutBuildingTheLab() throws Exception {
        Path stdout = home.resolve("out");
        Path stderr = home.resolve("err");
        Process launcher = new ProcessBuilder("bash", Path.of("..", "petrel").toString(), "bench", "--help")
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        try {
            assertThat(launcher.waitFor(30, TimeUnit.SECONDS)).as("the launcher answered within 30 s").isTrue();
        } finally {
            launcher.destroyForcibly();
        }
        assertThat(Files.readString(stderr)).as("nothing built, nothing said").isEmpty();
        assertThat(launcher.exitValue()).isZero();
        assertThat(Files.readString(stdout)).isEqualTo(help());
    }

    @Test
    void theLabChecksOnlyWhatTheScenariosAskedForNeed() throws Exception {
        assertThat(Lab.needs(LabOptions.parse(List.of("latency")), paths())).containsExactlyInAnyOrder("ab", "taskset", "gcc");
        assertThat(Lab.needs(LabOptions.parse(List.of("failover")), paths())).containsExactlyInAnyOrderElementsOf(Failover.NEEDS)
                .doesNotContain("gcc", "ab");
        assertThat(Lab.needs(LabOptions.parse(List.of("idle", "tls")), paths())).containsExactlyInAnyOrder("ab", "wrk", "openssl", "taskset", "gcc");
    }
}
