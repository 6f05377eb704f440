package dev.petrel.bench.report;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.ScenarioInfo.Layout;
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
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * The run at a glance: one small table, first in the report and the last thing the lab prints.
 * A row per scenario and variant (for a ramp or a ladder, whose variants are levels, only its last
 * and heaviest level) with the primary metric's median of the best Petrel server and of the best
 * peer, and the ratio of the two, oriented as every ratio of the report: above 1 means Petrel's
 * best did better. Figures come from the {@link Aggregation}, like every other table.
 */
final class Headline {
    /** The heading of the headline's section; {@code ReadmeFigures} finds the table by it. */
    static final String HEADING = "Headline";
    static final String EXPLANATION = "Per scenario and variant (for a ramp or a ladder, its last level), the median "
            + "of the best Petrel server against the best peer's, in the scenario's primary metric (a variant kept only "
            + "to reproduce a seed's client-bound figure is left out). × best peer above 1 means Petrel's best did "
            + "better: Petrel/peer where higher is better, peer/Petrel where lower is. Where passes alternated the "
            + "CPUs, the last columns compare the two bests again over the passes with the server on each CPU alone.";

    private Headline() {}

    /** Whether the run has anything to put in the headline: a scenario with its primary metric measured. */
    static boolean hasRows(Aggregation aggregation) {
        return aggregation.scenarios().stream().anyMatch(s -> s.primary() != null
                && s.variants().stream().anyMatch(v -> !s.info().asides().contains(v)));
    }

    /** The headline table of {@code aggregation}. */
    static Table of(Aggregation aggregation) {
        List<Integer> cpus = serverCpus(aggregation);
        List<Column> columns = new ArrayList<>(List.of(new Column("Scenario", false), new Column("Variant", false),
                new Column("Metric", false), new Column("Best Petrel", true), new Column("Best peer", true),
                new Column("× best peer", true)));
        for (int cpu : cpus) columns.add(new Column("× best peer, server on CPU " + cpu, true));
        List<Row> rows = new ArrayList<>();
        for (ScenarioResult scenario : aggregation.scenarios()) {
            MetricInfo primary = scenario.primary();
            if (primary == null) continue;
            // a variant kept for a seed's sake (a client-bound figure) is no verdict on the servers
            List<VariantResult> variants = scenario.variantResults().stream()
                    .filter(v -> !scenario.info().asides().contains(v.name())).toList();
            if (variants.isEmpty()) continue;
            if (scenario.info().layout() == Layout.VARIANTS_BY_SERVER) variants = List.of(variants.getLast());
            for (VariantResult variant : variants) rows.add(row(scenario, variant, primary, cpus));
        }
        return new Table(HEADING, columns, rows);
    }

    /**
     * The CPUs the servers were pinned to, when some scenario was measured on more than one (the
     * passes alternated them); else none, and the headline has no per-CPU columns.
     */
    static List<Integer> serverCpus(Aggregation aggregation) {
        if (aggregation.scenarios().stream().noneMatch(ScenarioResult::perServerCpu)) return List.of();
        return aggregation.scenarios().stream().flatMap(s -> s.serverCpus().stream()).distinct().sorted().toList();
    }

    private static Row row(ScenarioResult scenario, VariantResult variant, MetricInfo primary, List<Integer> cpus) {
        Entry petrel = best(variant, primary, e -> e.server().group() == Group.PETREL);
        Entry peer = variant.bestPeer() == null ? null : variant.entry(variant.bestPeer().name());
        double ratio = petrel == null || peer == null ? Double.NaN
                : Aggregation.ratio(primary, petrel.summary(primary.key()).median(), peer.summary(primary.key()).median());
        List<Cell> cells = new ArrayList<>(List.of(Cell.of(scenario.info().name()), Cell.of(variant.name()),
                Cell.of(Format.heading(primary.label(), primary.unit())),
                figure(variant, petrel, primary, Group.PETREL), figure(variant, peer, primary, Group.PEER),
                Cell.of(Format.ratio(ratio))));
        for (int cpu : cpus) cells.add(onCpu(variant, primary, cpu));
        return new Row(Style.PLAIN, cells);
    }

    /**
     * Best Petrel against best peer over the passes with the server on {@code cpu} alone, each best
     * chosen by its median there: the ratio, with the two servers' names beside it.
     */
    private static Cell onCpu(VariantResult variant, MetricInfo primary, int cpu) {
        Entry petrel = best(variant, primary, e -> e.server().group() == Group.PETREL, cpu);
        Entry peer = best(variant, primary, e -> e.server().group() == Group.PEER, cpu);
        if (petrel == null || peer == null) return Cell.of(Format.NONE);
        double ratio = Aggregation.ratio(primary, petrel.summary(primary.key(), cpu).median(),
                peer.summary(primary.key(), cpu).median());
        return new Cell(Format.ratio(ratio), petrel.server().name() + " vs " + peer.server().name());
    }

    /** The entry of {@code group} with the best primary median over the passes on {@code cpu}, or {@code null}. */
    private static Entry best(VariantResult variant, MetricInfo primary, Predicate<Entry> group, int cpu) {
        Comparator<Double> bestFirst = Aggregation.bestFirst(primary);
        return variant.entries().stream().filter(group).filter(e -> e.summary(primary.key(), cpu) != null)
                .min((a, b) -> bestFirst.compare(a.summary(primary.key(), cpu).median(), b.summary(primary.key(), cpu).median()))
                .orElse(null);
    }

    /** The entry of {@code group} with the best primary median, or {@code null} when none has one. */
    private static Entry best(VariantResult variant, MetricInfo primary, Predicate<Entry> group) {
        Comparator<Double> bestFirst = Aggregation.bestFirst(primary);
        return variant.entries().stream().filter(group).filter(e -> e.summary(primary.key()) != null)
                .min((a, b) -> bestFirst.compare(a.summary(primary.key()).median(), b.summary(primary.key()).median()))
                .orElse(null);
    }

    /**
     * The median with the server's name beside it; without one, "n/a" when every server of the group
     * is not applicable there, else "no result".
     */
    private static Cell figure(VariantResult variant, Entry entry, MetricInfo primary, Group group) {
        if (entry != null) return new Cell(Format.value(entry.summary(primary.key()).median(), primary.unit()), entry.server().name());
        List<Entry> ofGroup = variant.entries().stream().filter(e -> e.server().group() == group).toList();
        boolean inapplicable = !ofGroup.isEmpty() && ofGroup.stream().allMatch(e -> e.notApplicable() != null);
        return Cell.of(inapplicable ? Tables.NOT_APPLICABLE : Tables.NO_RESULT);
    }
}
