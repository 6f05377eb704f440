package dev.petrel.bench.report;

import dev.petrel.bench.model.Environment;
import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.ScenarioInfo.Layout;
import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.report.Aggregation.ScenarioResult;
import dev.petrel.bench.report.Aggregation.VariantResult;
import dev.petrel.bench.report.Charts.Chart;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report as a list of blocks, decided once and rendered twice (Markdown and HTML), so both
 * files say the same thing in the same order. Blocks carry plain text that renderers escape, except
 * {@link Prose}, which is Markdown (a scenario's method is written in Markdown by the lab).
 */
final class Outline {

    /** A piece of the report. */
    sealed interface Block permits Heading, Prose, Text, Warning, Facts, TableBlock, Samples, Images, Items {}

    /** A heading; {@code text} is plain. */
    record Heading(int level, String text) implements Block {}

    /** A paragraph of Markdown source. */
    record Prose(String markdown) implements Block {}

    /** A paragraph of plain text. */
    record Text(String text) implements Block {}

    /** A warning that must stand out. */
    record Warning(String text) implements Block {}

    /** Key/value lines; {@code code} values are shown as code (commits, flags, commands). */
    record Facts(List<Fact> facts) implements Block {}

    /**
     * One fact.
     *
     * @param key the name
     * @param value the value
     * @param code shown as code
     */
    record Fact(String key, String value, boolean code) {}

    /** A table. */
    record TableBlock(Table table) implements Block {}

    /** Each server's exact response, folded away: long, and needed only to check fairness. */
    record Samples(List<ServerInfo> servers) implements Block {}

    /** Charts. */
    record Images(List<Chart> charts) implements Block {}

    /** A bulleted list of plain text. */
    record Items(List<String> items) implements Block {}

    private Outline() {}

    /** The whole report. */
    static List<Block> of(Aggregation aggregation, List<Chart> charts) {
        List<Block> blocks = new ArrayList<>();
        Environment env = aggregation.results().environment();
        blocks.add(new Heading(1, "Petrel benchmark report, " + Format.date(env.startedAt())
                + (env.quick() ? " (--quick run)" : "")));
        if (env.quick()) {
            blocks.add(new Warning("Warning: this was a --quick smoke run, with short and few passes. "
                    + "Its figures mean nothing: do not compare them, quote them or draw conclusions from them."));
        }
        // the headline first: what a reader came for, before how it was measured
        if (Headline.hasRows(aggregation)) {
            blocks.add(new Heading(2, Headline.HEADING));
            blocks.add(new Text(Headline.EXPLANATION));
            blocks.add(new TableBlock(Headline.of(aggregation)));
        }
        blocks.add(new Heading(2, "Environment"));
        blocks.add(new Facts(facts(env)));

        List<ServerInfo> servers = aggregation.results().servers();
        blocks.add(new Heading(2, "Servers"));
        blocks.add(new TableBlock(Tables.servers(servers)));
        if (!servers.isEmpty()) blocks.add(new Samples(servers));

        for (ScenarioResult scenario : aggregation.scenarios()) {
            blocks.addAll(scenario(aggregation.results(), scenario, charts.stream().filter(c -> c.scenario().equals(scenario.info().name())).toList()));
        }

        blocks.add(new Heading(2, "Problems"));
        List<String> problems = aggregation.problems();
        blocks.add(problems.isEmpty() ? new Text("none") : new Items(problems));
        return blocks;
    }

    private static List<Fact> facts(Environment env) {
        List<Fact> facts = new ArrayList<>();
        facts.add(new Fact("Started", text(env.startedAt()), false));
        facts.add(new Fact("Petrel commit", text(env.petrelCommit()), true));
        facts.add(new Fact("JDK", text(env.jdk()), false));
        facts.add(new Fact("JVM options", text(env.jvmOptions()), true));
        facts.add(new Fact("Kernel", text(env.kernel()), false));
        facts.add(new Fact("CPU", text(env.cpuModel()) + ", " + env.cpus() + (env.cpus() == 1 ? " CPU" : " CPUs"), false));
        facts.add(new Fact("Pinning", env.cpusAlternate()
                ? "odd passes: servers " + cpu(env.serverCpu()) + ", load tools " + cpu(env.clientCpu())
                        + "; even passes: the other way round"
                : "servers " + cpu(env.serverCpu()) + ", load tools " + cpu(env.clientCpu()), false));
        Map<String, String> tools = env.tools() == null ? Map.of() : env.tools();
        tools.forEach((tool, version) -> facts.add(new Fact("Tool " + tool, text(version), false)));
        facts.add(new Fact("Command", text(env.command()), true));
        return facts;
    }

    private static List<Block> scenario(RunResults results, ScenarioResult scenario, List<Chart> charts) {
        List<Block> blocks = new ArrayList<>();
        String seed = scenario.info().seed();
        blocks.add(new Heading(2, scenario.info().title() + (seed == null || seed.isBlank() ? "" : " [seeds " + seed + "]")));
        if (scenario.info().method() != null && !scenario.info().method().isBlank()) {
            blocks.add(new Prose(scenario.info().method()));
        }
        if (scenario.metrics().isEmpty()) {
            // nothing was measured: still say so per server rather than show an empty section
            blocks.add(new Text("No server has a result in this scenario."));
            blocks.addAll(inapplicable(scenario));
            if (!scenario.missing().isEmpty() || scenario.inapplicable().isEmpty()) {
                blocks.add(new TableBlock(noResults(scenario)));
            }
            return blocks;
        }
        boolean perVariant = scenario.info().layout() != Layout.VARIANTS_BY_SERVER;
        MetricInfo primary = scenario.primary();
        String cells = "Each cell is the median of " + scenario.passes()
                + ", with the range (min–max) in parentheses where the passes differ.";
        if (perVariant && primary != null) {
            cells += " × baseline and × best peer compare " + primary.label() + " (" + direction(primary)
                    + "): above 1 means better than the reference. The best peer is the peer with the best median.";
        }
        if (primary != null && scenario.perServerCpu()) {
            cells += " Passes alternated the CPUs: the column \"server on CPU " + scenario.serverCpus().getFirst()
                    + " / CPU " + scenario.serverCpus().getLast() + "\" gives the median of " + primary.label()
                    + " over the passes with the server on each.";
        }
        blocks.add(new Text(cells));
        Environment env = results.environment();
        if (env != null && env.cpusAlternate() && scenario.serverCpus().size() == 1) {
            blocks.add(new Warning("Measured with the server on CPU " + scenario.serverCpus().getFirst()
                    + " only (one pass): the other assignment can move these figures by up to 1.4×; run --passes 2 or more."));
        }
        blocks.addAll(inapplicable(scenario));
        blocks.add(new Prose("Data: [" + CsvWriter.samplesFile(scenario) + "](" + CsvWriter.samplesFile(scenario)
                + ") (every pass), [" + CsvWriter.summaryFile(scenario) + "](" + CsvWriter.summaryFile(scenario)
                + ") (medians, ranges, ratios)."));

        if (perVariant) {
            List<VariantResult> variants = scenario.variantResults();
            if (variants.size() > 1) {
                Table overview = Tables.headlineByServer(scenario, scenario.missing());
                blocks.add(new Heading(3, overview.heading()));
                blocks.add(new TableBlock(overview));
            }
            for (int i = 0; i < variants.size(); i++) {
                VariantResult v = variants.get(i);
                Table table = Tables.serversOfVariant(scenario, v, i == 0 ? scenario.missing() : List.of());
                blocks.add(new Heading(3, v.name() + " (" + v.passes() + ")"));
                blocks.add(new TableBlock(table));
            }
        } else {
            Table overview = Tables.headlineByVariant(scenario, scenario.missing());
            blocks.add(new Heading(3, overview.heading()));
            blocks.add(new TableBlock(overview));
            for (ServerInfo server : scenario.servers()) {
                Table table = Tables.variantsOfServer(scenario, server);
                blocks.add(new Heading(3, table.heading()));
                blocks.add(new TableBlock(table));
            }
        }
        List<String> notes = results.notes(scenario.info().name());
        if (!notes.isEmpty()) {
            blocks.add(new Heading(3, "Notes"));
            blocks.add(new Items(notes));
        }
        if (!charts.isEmpty()) blocks.add(new Images(charts));
        return blocks;
    }

    /**
     * One line per reason for the servers that can have no figure anywhere in the scenario, e.g.
     * {@code Not applicable (has no AJP connector): jetty, undertow.}; nothing when there are none.
     */
    private static List<Block> inapplicable(ScenarioResult scenario) {
        Map<String, List<String>> byReason = new LinkedHashMap<>();
        for (Aggregation.Inapplicable i : scenario.inapplicable()) {
            byReason.computeIfAbsent(i.reason(), k -> new ArrayList<>()).add(i.server().name());
        }
        List<Block> blocks = new ArrayList<>();
        byReason.forEach((reason, names) -> blocks.add(new Text(
                "Not applicable (" + reason + "): " + String.join(", ", names) + ".")));
        return blocks;
    }

    private static Table noResults(ScenarioResult scenario) {
        List<Table.Row> rows = new ArrayList<>();
        for (ServerInfo s : scenario.missing()) {
            rows.add(new Table.Row(Table.Style.NO_RESULT, List.of(Table.Cell.of(s.name()), Table.Cell.of(Tables.NO_RESULT))));
        }
        return new Table(scenario.info().title(), List.of(new Table.Column("Server", false),
                new Table.Column("Result", false)), rows);
    }

    private static String direction(MetricInfo m) {
        return m.higherIsBetter() ? "higher is better, so value/reference" : "lower is better, so reference/value";
    }

    private static String cpu(int cpu) {
        // the model has no "unpinned" value; a negative CPU number is the natural way to say so
        return cpu < 0 ? "not pinned" : "on CPU " + cpu;
    }

    private static String text(String s) {
        return s == null || s.isBlank() ? "unknown" : s;
    }
}
