package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.bench.model.Environment;
import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.Sample;
import dev.petrel.bench.model.ScenarioInfo;
import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.report.ReportWriter;
import dev.petrel.bench.servers.LabAjp;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ajp scenario without httpd: its two sections, which servers it measures and which it marks
 * not applicable, the AJP listener on the command line, what it reads from httpd (configuration,
 * answers), the generator's command line, and the rows its samples make in the report.
 */
class AjpScenarioTest {
    @TempDir
    Path home;

    private LabPaths paths() {
        return new LabPaths(home, Path.of("/jdk/bin/java"));
    }

    private static ServerSpec named(List<ServerSpec> servers, String name) {
        return servers.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void twoSectionsTheSeedsTableAndTheLadder() {
        AjpScenario full = new AjpScenario(false, paths());

        assertThat(full.sections()).extracting(ScenarioInfo::name).containsExactly("ajp", "ajp-ladder");
        ScenarioInfo table = full.info();
        assertThat(table.seed()).isEqualTo("002");
        assertThat(table.variants()).containsExactly("mod_jk", "mod_proxy_ajp");
        assertThat(table.metrics()).extracting(MetricInfo::key).startsWith("cpu_total_pct", "cpu_front_pct", "cpu_backend_pct")
                .contains("achieved_rps", "p50_us", "p99_us", "errors", "ladder_max_ok_rps", "ladder_max_rps");
        assertThat(table.primary().higherIsBetter()).isFalse();
        assertThat(table.method()).contains("400 requests/s of `GET /` for 60 s", "`ThreadsPerChild 25`",
                "`MaxRequestWorkers 400`", "swapped every other pass", "cutime + cstime");

        ScenarioInfo ladder = full.ladderInfo();
        assertThat(ladder.layout()).isEqualTo(ScenarioInfo.Layout.VARIANTS_BY_SERVER);
        assertThat(ladder.variants()).containsExactly("10 connections", "50 connections", "100 connections",
                "200 connections", "400 connections");
        assertThat(ladder.metrics()).extracting(MetricInfo::key).containsExactly("rps_jk", "rps_proxy_ajp", "non2xx_jk",
                "socket_jk", "non2xx_proxy_ajp", "socket_proxy_ajp");
        assertThat(ladder.charted()).containsExactly("rps_jk", "rps_proxy_ajp");

        AjpScenario quick = new AjpScenario(true, paths());
        assertThat(quick.ladderInfo().variants()).containsExactly("10 connections", "100 connections", "400 connections");
        assertThat(quick.info().method()).contains("for 2 s");
        assertThat(quick.ajp()).isTrue();
        assertThat(new IdleScenario(true, false).ajp()).isFalse();
    }

    @Test
    void petrelOnEveryTransportTomcatNioAndTomcatOnPetrelSpeakAjpTheOthersAreNotApplicable() {
        AjpScenario scenario = new AjpScenario(true, paths());
        List<ServerSpec> servers = ServerCatalog.all(paths());

        assertThat(Applicability.applicable(scenario, servers)).extracting(ServerSpec::name).containsExactly(
                "petrel-blocking", "petrel-virtual", "petrel-nio", "petrel-nio-inline", "tomcat-nio", "tomcat-petrel-blocking",
                "tomcat-petrel-virtual", "tomcat-petrel-nio");
        assertThat(scenario.notApplicable(named(servers, "baseline-c"))).isEqualTo("the C baseline speaks no AJP");
        assertThat(scenario.notApplicable(named(servers, "tomcat-nio2")))
                .isEqualTo("the lab measures Tomcat's AJP connector on tomcat-nio");
        assertThat(scenario.notApplicable(named(servers, "jetty"))).isEqualTo("speaks no AJP");
        // other scenarios over plain HTTP measure every HelloWorld server but those measured over TLS only and
        // the websocket scenario's own floor; the tomcat scenarios' applications only those
        List<ServerSpec> hello = servers.stream()
                .filter(s -> !s.application() && s.onlyOverTls() == null && s.onlyIn() == null).toList();
        assertThat(Applicability.applicable(new IdleScenario(true, false), servers)).isEqualTo(hello);
        assertThat(Applicability.applicable(RampScenario.tomcat(true), servers)).extracting(ServerSpec::name).containsExactly(
                "boot-jar-tomcat-nio", "boot-jar-petrel-blocking", "boot-jar-petrel-virtual", "boot-jar-petrel-nio",
                "boot-war-tomcat-nio", "boot-war-petrel-blocking", "boot-war-petrel-virtual", "boot-war-petrel-nio");
    }

    @Test
    void theAjpListenerIsAskedForOnTheHttpPortPlusTwo() {
        List<ServerSpec> servers = ServerCatalog.all(paths());
        String property = "-D" + LabAjp.PROPERTY + "=";

        assertThat(named(servers, "petrel-nio").command().line(18_400, null, true, Path.of("folder"))).contains(property + "18402");
        assertThat(named(servers, "tomcat-nio").command().line(18_400, null, true, Path.of("folder"))).contains(property + "18402")
                .endsWith("dev.petrel.bench.servers.TomcatHello", "18400", "nio");
        assertThat(named(servers, "petrel-nio").command().line(18_400, null, false, Path.of("folder"))).noneMatch(a -> a.startsWith(property));
        assertThat(ServerCatalog.AJP_PROPERTY).isEqualTo("petrel.bench.ajp");
    }

    @Test
    void theGeneratorRunsInItsOwnSmallJvmOnTheLabsClassPath() {
        AjpScenario scenario = new AjpScenario(false, paths());
        FixedRateLoad.Config config = new FixedRateLoad.Config(URI.create("http://127.0.0.1:40000/"), 400, 60_000, 16,
                1_790_000_000_000L, 5_000);

        assertThat(scenario.generatorCommand(config)).startsWith("/jdk/bin/java").containsSubsequence(
                "-cp", home.resolve("bench/target/lib") + "/*", "dev.petrel.bench.lab.FixedRateLoad",
                "http://127.0.0.1:40000/", "400", "60000", "16", "1790000000000", "5000");
    }

    @Test
    void quotesTheMpmDirectivesOfTheGeneratedConfiguration() {
        String conf = """
                # A fixed pool: every child is started up front
                ServerLimit 16
                ThreadLimit 25
                ThreadsPerChild   25
                MaxRequestWorkers 400
                StartServers 16
                # MaxRequestWorkers 150
                MinSpareThreads 25
                MaxSpareThreads 425
                Listen 127.0.0.1:37765
                JkMount /* petrel
                KeepAliveTimeout 5
                """;

        assertThat(AjpScenario.quotedDirectives(conf)).containsExactly("ServerLimit 16", "ThreadLimit 25",
                "ThreadsPerChild 25", "MaxRequestWorkers 400", "StartServers 16", "MinSpareThreads 25",
                "MaxSpareThreads 425", "KeepAliveTimeout 5");
    }

    @Test
    void readsHelloWorldWhetherChunkedOrWithALength() {
        // Tomcat's answer through mod_proxy_ajp as the lab captured it: httpd chunks it, and the reason is "200"
        AjpScenario.Answer chunked = AjpScenario.Answer.parse("HTTP/1.1 200 200\r\nDate: Sun, 22 Nov 2026 14:34:21 GMT\r\n"
                + "Server: Apache/2.4.71 (Debian)\r\nContent-Type: text/plain;charset=UTF-8\r\nConnection: close\r\n"
                + "Transfer-Encoding: chunked\r\n\r\na\r\nHelloWorld\r\n0\r\n\r\n");
        assertThat(chunked.statusLine()).isEqualTo("HTTP/1.1 200 200");
        assertThat(chunked.body()).isEqualTo("HelloWorld");
        assertThat(chunked.framing()).isEqualTo("chunked");
        assertThat(chunked.header("SERVER")).isEqualTo("Apache/2.4.71 (Debian)");

        AjpScenario.Answer length = AjpScenario.Answer.parse("HTTP/1.1 200 OK\r\nServer: Apache/2.4.71 (Debian) "
                + "mod_jk/1.2.48\r\nContent-Length: 10\r\n\r\nHelloWorld");
        assertThat(length.body()).isEqualTo("HelloWorld");
        assertThat(length.framing()).isEqualTo("Content-Length 10");
        assertThat(length.header("content-type")).isNull();

        assertThat(AjpScenario.Answer.dechunk("5\r\nHello\r\n5;x=1\r\nWorld\r\n0\r\n\r\n")).isEqualTo("HelloWorld");
        assertThat(AjpScenario.Answer.dechunk("a\r\nHello")).isNull();
        assertThat(AjpScenario.Answer.dechunk("zz\r\n")).isNull();
        assertThat(AjpScenario.Answer.parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nHello").body()).isNull();
        assertThat(AjpScenario.Answer.parse("HTTP/1.1 502 Bad Gateway\r\n\r\nno").body()).isEqualTo("no");
    }

    @Test
    void theReportHasTheSeedsColumnsPerModuleTheLadderPerBackendAndSaysOnceWhoSpeaksNoAjp() {
        AjpScenario scenario = new AjpScenario(false, paths());
        List<ServerSpec> all = ServerCatalog.all(paths());
        List<ServerSpec> chosen = List.of(named(all, "baseline-c"), named(all, "petrel-nio"), named(all, "tomcat-nio"),
                named(all, "jetty"));
        RunResults results = new RunResults(new Environment("2026-11-22T10:00:00Z", "abc", "25", "", "6.8", "cpu", 2, 0, 1,
                Map.of(), "./petrel bench ajp", false));
        chosen.forEach(s -> results.server(new ServerInfo(s.name(), s.group(), s.description(), null)));
        scenario.sections().forEach(results::scenario);
        Lab.markNotApplicable(scenario, chosen, results);

        // the seed's figures for Tomcat, and Petrel at half of them
        record Cell(String server, String module, double front, double backend, double okRps, double maxRps) {}
        List<Cell> cells = List.of(new Cell("tomcat-nio", "mod_jk", 12.96, 8.18, 1400, 1400),
                new Cell("tomcat-nio", "mod_proxy_ajp", 18.49, 25.94, 700, 900),
                new Cell("petrel-nio", "mod_jk", 6.48, 4.09, 2800, 2800),
                new Cell("petrel-nio", "mod_proxy_ajp", 9.25, 12.97, 1400, 1800));
        List<Sample> samples = new ArrayList<>();
        for (Cell c : cells) {
            samples.add(new Sample("ajp", c.module(), c.server(), 1, "cpu_total_pct", c.front() + c.backend()));
            samples.add(new Sample("ajp", c.module(), c.server(), 1, "cpu_front_pct", c.front()));
            samples.add(new Sample("ajp", c.module(), c.server(), 1, "cpu_backend_pct", c.backend()));
            samples.add(new Sample("ajp", c.module(), c.server(), 1, "achieved_rps", 400));
            samples.add(new Sample("ajp", c.module(), c.server(), 1, "p50_us", 350));
            samples.add(new Sample("ajp", c.module(), c.server(), 1, "p99_us", 2100));
            samples.add(new Sample("ajp", c.module(), c.server(), 1, "errors", 0));
            samples.add(new Sample("ajp", c.module(), c.server(), 1, "ladder_max_ok_rps", c.okRps()));
            samples.add(new Sample("ajp", c.module(), c.server(), 1, "ladder_max_rps", c.maxRps()));
        }
        for (String server : List.of("petrel-nio", "tomcat-nio")) {
            for (int connections : List.of(10, 50, 100, 200, 400)) {
                String level = AjpScenario.level(connections);
                samples.add(new Sample("ajp-ladder", level, server, 1, "rps_jk", connections * 10));
                samples.add(new Sample("ajp-ladder", level, server, 1, "rps_proxy_ajp", connections * 5));
                samples.add(new Sample("ajp-ladder", level, server, 1, "non2xx_jk", 0));
                samples.add(new Sample("ajp-ladder", level, server, 1, "socket_jk", 0));
                samples.add(new Sample("ajp-ladder", level, server, 1, "non2xx_proxy_ajp", connections == 400 ? 3 : 0));
                samples.add(new Sample("ajp-ladder", level, server, 1, "socket_proxy_ajp", connections == 400 ? 17 : 0));
            }
        }
        samples.forEach(results::add);

        String md = ReportWriter.markdown(results);

        assertThat(md).contains("## AJP behind Apache httpd: mod_jk and mod_proxy_ajp at 400 requests/s [seeds 002]",
                "## AJP behind Apache httpd: rising concurrency [seeds 002]");
        // said once per section, not as a row of every table
        assertThat(md.split("Not applicable \\(the C baseline speaks no AJP\\): baseline-c\\.", -1)).hasSize(3);
        assertThat(md.split("Not applicable \\(speaks no AJP\\): jetty\\.", -1)).hasSize(3);
        assertThat(md.substring(md.indexOf("## AJP"))).doesNotContain("| jetty |").doesNotContain("| baseline-c");

        assertThat(table(md, "### total CPU (%), median per server")).containsExactly(
                "| Server | mod_jk | mod_proxy_ajp |",
                "| --- | ---: | ---: |",
                "| **petrel-nio** | 10.57 | 22.22 |",
                "| tomcat-nio | 21.14 | 44.43 |");
        List<String> jk = table(md, "### mod_jk (1 pass)");
        assertThat(jk.getFirst()).isEqualTo("| Server | total CPU (%) | httpd CPU (%) | backend CPU (%) | achieved (req/s) "
                + "| p50 (µs) | p99 (µs) | errors (requests) | ladder: highest without errors (req/s) "
                + "| ladder: highest (req/s) | × best peer |");
        assertThat(jk).contains("| tomcat-nio (best peer) | 21.14 | 12.96 | 8.18 | 400 | 350.0 | 2,100.0 | 0 | 1,400 | 1,400 | 1.00 |");
        assertThat(table(md, "### mod_proxy_ajp (1 pass)"))
                .contains("| **petrel-nio** | 22.22 | 9.25 | 12.97 | 400 | 350.0 | 2,100.0 | 0 | 1,400 | 1,800 | 2.00 |");

        assertThat(table(md, "### req/s via mod_jk (req/s), median per server")).containsExactly(
                "| Variant | petrel-nio | tomcat-nio |",
                "| --- | ---: | ---: |",
                "| 10 connections | 100 | 100 |",
                "| 50 connections | 500 | 500 |",
                "| 100 connections | 1,000 | 1,000 |",
                "| 200 connections | 2,000 | 2,000 |",
                "| 400 connections | 4,000 | 4,000 |");
        List<String> petrel = table(md, "### petrel-nio (Petrel)");
        assertThat(petrel.getFirst()).isEqualTo("| Variant | req/s via mod_jk (req/s) | req/s via mod_proxy_ajp (req/s) "
                + "| non-2xx via mod_jk (responses) | socket errors via mod_jk (errors) "
                + "| non-2xx via mod_proxy_ajp (responses) | socket errors via mod_proxy_ajp (errors) |");
        assertThat(petrel.getLast()).isEqualTo("| 400 connections | 4,000 | 2,000 | 0 | 0 | 3 | 17 |");

        // line charts of the two rates only; bar charts of total CPU and the ladder's best per module
        assertThat(ReportWriter.files(results)).contains("ajp-mod-jk.svg", "ajp-mod-jk-ladder-max-ok-rps.svg",
                "ajp-ladder-rps-jk.svg", "ajp-ladder-rps-proxy-ajp.svg").doesNotContain("ajp-ladder-socket-jk.svg");
        assertThat(results.problems()).isEmpty();
    }

    /** The lines of the table right under {@code heading}, header and separator included. */
    private static List<String> table(String md, String heading) {
        List<String> lines = md.lines().toList();
        int at = lines.indexOf(heading);
        assertThat(at).as("heading %s", heading).isNotNegative();
        List<String> table = new ArrayList<>();
        for (int i = at + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) table.add(lines.get(i));
        return table;
    }
}
