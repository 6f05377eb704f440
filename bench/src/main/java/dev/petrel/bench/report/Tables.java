package dev.petrel.bench.report;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.model.ServerInfo.Group;
import dev.petrel.bench.model.Summary;
import dev.petrel.bench.report.Aggregation.Entry;
import dev.petrel.bench.report.Aggregation.ScenarioResult;
import dev.petrel.bench.report.Aggregation.VariantResult;
import dev.petrel.bench.report.Table.Cell;
import dev.petrel.bench.report.Table.Column;
import dev.petrel.bench.report.Table.Row;
import dev.petrel.bench.report.Table.Style;
import java.util.ArrayList;
import java.util.List;

/** Builds the report's tables from an {@link Aggregation}; formatting only, no arithmetic. */
final class Tables {
    static final String NO_RESULT = "no result";
    /** Said in a cell that can have no figure by design; the reason is beside it or in a line above the table. */
    static final String NOT_APPLICABLE = "n/a";
    /** The aside that marks the best peer's row. */
    static final String BEST_PEER = "best peer";

    private Tables() {}

    /** The table of the servers and their metrics. */
    static Table servers(List<ServerInfo> servers) {
        List<Column> columns = List.of(new Column("Server", false), new Column("Group", false),
                new Column("Description", false));
        List<Row> rows = servers.stream().map(s -> new Row(style(s.group(), false), List.of(
                Cell.of(s.name()), Cell.of(Format.group(s.group())), Cell.of(s.description())))).toList();
        return new Table("Servers", columns, rows);
    }

    /**
     * SERVERS_BY_VARIANT: a row per server in {@link VariantResult#entries()} order, a column per
     * metric (median, min–max aside), then the primary metric's ratios when the variant has the
     * reference. {@code missing} servers (no sample in the whole scenario) are added as "no result".
     */
    static Table serversOfVariant(ScenarioResult scenario, VariantResult variant, List<ServerInfo> missing) {
        MetricInfo primary = scenario.primary();
        boolean toBaseline = primary != null && variant.baseline() != null;
        boolean toBestPeer = primary != null && variant.bestPeer() != null;

        List<Column> columns = new ArrayList<>();
        columns.add(new Column("Server", false));
        for (MetricInfo m : scenario.metrics()) columns.add(new Column(Format.heading(m.label(), m.unit()), true));
        boolean perCpu = primary != null && scenario.perServerCpu();
        if (perCpu) columns.add(perCpuColumn(scenario, primary));
        if (toBaseline) columns.add(new Column("× baseline", true));
        if (toBestPeer) columns.add(new Column("× best peer", true));

        List<Row> rows = new ArrayList<>();
        for (Entry e : variant.entries()) {
            List<Cell> cells = new ArrayList<>();
            cells.add(serverCell(e.server(), e.bestPeer()));
            if (!e.hasResult()) {
                rows.add(e.notApplicable() != null ? notApplicable(cells, e.notApplicable(), columns.size())
                        : noResult(cells, columns.size()));
                continue;
            }
            for (MetricInfo m : scenario.metrics()) cells.add(metricCell(e.summary(m.key()), m));
            if (perCpu) cells.add(perCpuCell(scenario, e, primary));
            if (toBaseline) cells.add(Cell.of(Format.ratio(e.toBaseline())));
            if (toBestPeer) cells.add(Cell.of(Format.ratio(e.toBestPeer())));
            rows.add(new Row(style(e.server().group(), e.bestPeer()), cells));
        }
        for (ServerInfo s : missing) {
            List<Cell> cells = new ArrayList<>();
            cells.add(serverCell(s, false));
            rows.add(noResult(cells, columns.size()));
        }
        return new Table(variant.name(), columns, rows);
    }

    /**
     * SERVERS_BY_VARIANT overview: the headline metric's median, a row per server and a column per
     * variant, as the seeds' tables read (a connector per row; keep-alive, no keep-alive, HTTPS...
     * across). Rows are in the scenario's server order (baseline, Petrel, peers); servers without
     * any sample last. A cell says "not applicable" or "no result" where it has no figure.
     */
    static Table headlineByServer(ScenarioResult scenario, List<ServerInfo> missing) {
        MetricInfo m = headline(scenario);
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("Server", false));
        for (VariantResult v : scenario.variantResults()) columns.add(new Column(v.name(), true));
        List<Row> rows = new ArrayList<>();
        for (ServerInfo s : scenario.servers()) {
            List<Cell> cells = new ArrayList<>();
            cells.add(serverCell(s, false));
            for (VariantResult v : scenario.variantResults()) {
                Entry e = v.entry(s.name());
                Summary sum = e.summary(m.key());
                cells.add(Cell.of(sum != null ? Format.value(sum.median(), m.unit())
                        : e.notApplicable() != null ? NOT_APPLICABLE : NO_RESULT));
            }
            rows.add(new Row(style(s.group(), false), cells));
        }
        for (ServerInfo s : missing) {
            // every column says it: this is the table a reader scans across
            List<Cell> cells = new ArrayList<>();
            cells.add(serverCell(s, false));
            for (int i = 1; i < columns.size(); i++) cells.add(Cell.of(NO_RESULT));
            rows.add(new Row(Style.NO_RESULT, cells));
        }
        return new Table(Format.heading(m.label(), m.unit()) + ", median per server", columns, rows);
    }

    /**
     * VARIANTS_BY_SERVER overview: the headline metric's median, a row per variant and a column per
     * server, so the ramp reads across; servers without any sample get a "no result" column.
     */
    static Table headlineByVariant(ScenarioResult scenario, List<ServerInfo> missing) {
        MetricInfo m = headline(scenario);
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("Variant", false));
        for (ServerInfo s : scenario.servers()) columns.add(new Column(s.name(), true));
        for (ServerInfo s : missing) columns.add(new Column(s.name(), true));
        List<Row> rows = new ArrayList<>();
        for (VariantResult v : scenario.variantResults()) {
            List<Cell> cells = new ArrayList<>();
            cells.add(Cell.of(v.name()));
            for (ServerInfo s : scenario.servers()) {
                Summary sum = v.entry(s.name()).summary(m.key());
                cells.add(Cell.of(sum == null ? NO_RESULT : Format.value(sum.median(), m.unit())));
            }
            for (int i = 0; i < missing.size(); i++) cells.add(Cell.of(NO_RESULT));
            rows.add(new Row(Style.PLAIN, cells));
        }
        return new Table(Format.heading(m.label(), m.unit()) + ", median per server", columns, rows);
    }

    /** VARIANTS_BY_SERVER: one server's metrics, a row per variant in the scenario's order. */
    static Table variantsOfServer(ScenarioResult scenario, ServerInfo server) {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("Variant", false));
        for (MetricInfo m : scenario.metrics()) columns.add(new Column(Format.heading(m.label(), m.unit()), true));
        MetricInfo primary = scenario.primary();
        boolean perCpu = primary != null && scenario.perServerCpu();
        if (perCpu) columns.add(perCpuColumn(scenario, primary));
        List<Row> rows = new ArrayList<>();
        for (VariantResult v : scenario.variantResults()) {
            Entry e = v.entry(server.name());
            List<Cell> cells = new ArrayList<>();
            cells.add(Cell.of(v.name()));
            if (!e.hasResult()) {
                rows.add(noResult(cells, columns.size()));
                continue;
            }
            for (MetricInfo m : scenario.metrics()) cells.add(metricCell(e.summary(m.key()), m));
            if (perCpu) cells.add(perCpuCell(scenario, e, primary));
            rows.add(new Row(Style.PLAIN, cells));
        }
        String group = Format.group(server.group());
        return new Table(server.name() + " (" + group + ")", columns, rows);
    }

    /**
     * The column of the primary metric's median per CPU the server was pinned to, e.g.
     * {@code requests/s (req/s), server on CPU 0 / CPU 1}: passes alternate the CPUs, and which
     * one a server gets can move its figures.
     */
    static Column perCpuColumn(ScenarioResult scenario, MetricInfo primary) {
        return new Column(Format.heading(primary.label(), primary.unit()) + ", server on "
                + String.join(" / ", scenario.serverCpus().stream().map(c -> "CPU " + c).toList()), true);
    }

    /** A server's primary median for each of the scenario's CPUs, e.g. {@code 26,910 / 31,022}; "–" for a CPU it has none on. */
    static Cell perCpuCell(ScenarioResult scenario, Entry entry, MetricInfo primary) {
        List<String> medians = new ArrayList<>();
        for (int cpu : scenario.serverCpus()) {
            Summary s = entry.summary(primary.key(), cpu);
            medians.add(s == null ? Format.NONE : Format.value(s.median(), primary.unit()));
        }
        return Cell.of(String.join(" / ", medians));
    }

    /** The metric the overview and bars use: the primary one, or the first measured if it is missing. */
    static MetricInfo headline(ScenarioResult scenario) {
        return scenario.primary() != null ? scenario.primary() : scenario.metrics().getFirst();
    }

    private static Cell serverCell(ServerInfo server, boolean bestPeer) {
        String aside = bestPeer ? BEST_PEER : server.group() == Group.BASELINE ? "baseline"
                : server.group() == null ? "group unknown" : null;
        return new Cell(server.name(), aside);
    }

    /**
     * The median, and the min–max range as an aside when the passes differ as shown: a range of
     * {@code 0.50–0.50} would only add noise (the variant's heading says how many passes there were).
     */
    private static Cell metricCell(Summary s, MetricInfo m) {
        if (s == null) return Cell.of(Format.NONE);
        boolean spread = !Format.value(s.min(), m.unit()).equals(Format.value(s.max(), m.unit()));
        String range = spread ? Format.range(s.min(), s.max(), m.unit()) : null;
        return new Cell(Format.value(s.median(), m.unit()), range);
    }

    /** A row with no figure by design: "not applicable", the reason aside. */
    private static Row notApplicable(List<Cell> cells, String reason, int width) {
        cells.add(new Cell(NOT_APPLICABLE, reason));
        while (cells.size() < width) cells.add(Cell.of(""));
        return new Row(Style.NO_RESULT, cells);
    }

    private static Row noResult(List<Cell> cells, int width) {
        cells.add(Cell.of(NO_RESULT));
        while (cells.size() < width) cells.add(Cell.of(""));
        return new Row(Style.NO_RESULT, cells);
    }

    private static Style style(Group group, boolean bestPeer) {
        if (bestPeer) return Style.BEST_PEER;
        return group == Group.PETREL ? Style.PETREL : Style.PLAIN;
    }
}
