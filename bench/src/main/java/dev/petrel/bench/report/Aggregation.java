package dev.petrel.bench.report;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.NotApplicable;
import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.Sample;
import dev.petrel.bench.model.ScenarioInfo;
import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.model.ServerInfo.Group;
import dev.petrel.bench.model.Summary;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A run's samples summarized once: per scenario, variant, server and metric the {@link Summary},
 * the table order of servers, and the primary metric's ratios to the baseline and to the best
 * peer. Every output reads these, so the CSV, Markdown, HTML and charts cannot disagree.
 *
 * <p>Only what has samples is kept: a declared variant or metric nobody measured is left out (a
 * variant some server is marked not applicable in counts as measured). A
 * described server with no sample in a scenario is kept in {@link ScenarioResult#missing()} so the
 * report can say "no result" instead of dropping it. Inconsistencies in the run (samples of an
 * undeclared scenario or metric, of an undescribed server, non-finite values) become
 * {@link #problems()} rather than vanishing.
 */
final class Aggregation {

    /**
     * One server in one variant.
     *
     * @param server the server (group {@code null} when the run never described it)
     * @param summaries per metric key, only the metrics it has samples of
     * @param toBaseline the primary metric's ratio to the baseline, NaN when not applicable
     * @param toBestPeer the primary metric's ratio to the best peer, NaN when not applicable
     * @param bestPeer whether this is the variant's best peer
     * @param notApplicable why this server can have no figure in this variant (see
     *     {@link dev.petrel.bench.model.NotApplicable}), or {@code null}
     * @param byServerCpu per CPU the server was pinned to, the summaries of the passes it ran there
     *     (passes alternate the CPUs); only the samples that recorded their CPU
     */
    record Entry(ServerInfo server, Map<String, Summary> summaries, double toBaseline, double toBestPeer,
                 boolean bestPeer, String notApplicable, Map<Integer, Map<String, Summary>> byServerCpu) {
        boolean hasResult() {
            return !summaries.isEmpty();
        }

        Summary summary(String metric) {
            return summaries.get(metric);
        }

        /** The summary of {@code metric} over the passes with the server on {@code serverCpu}, or {@code null}. */
        Summary summary(String metric, int serverCpu) {
            return byServerCpu.getOrDefault(serverCpu, Map.of()).get(metric);
        }
    }

    /**
     * One variant of a scenario.
     *
     * @param name the variant
     * @param entries every server of the scenario in table order: baseline, Petrel, peers, each
     *     best-first by the primary median; servers without a result in this variant last
     * @param baseline the baseline the ratios refer to, or {@code null}
     * @param bestPeer the best peer, or {@code null}
     */
    record VariantResult(String name, List<Entry> entries, ServerInfo baseline, ServerInfo bestPeer) {
        Entry entry(String server) {
            return entries.stream().filter(e -> e.server().name().equals(server)).findFirst().orElse(null);
        }

        /** How many passes the cells of this variant summarize: e.g. {@code 3 passes} or {@code 2–3 passes}. */
        String passes() {
            return Aggregation.passes(entries.stream());
        }
    }

    /**
     * A server that can have no figure anywhere in a scenario.
     *
     * @param server the server
     * @param reason why, as marked (the first variant's reason when they differ)
     */
    record Inapplicable(ServerInfo server, String reason) {}

    /**
     * One scenario.
     *
     * @param info as declared
     * @param fileBase the start of its files' names: the name as a slug, unique in the run
     * @param metrics the declared metrics that have samples, in declared order
     * @param variants the variants that have samples or not-applicable cells: declared order, then
     *     undeclared ones in order of appearance
     * @param servers the servers with samples or not-applicable cells, but not those not applicable
     *     in every variant: by group, then in the order the run described them
     * @param missing described servers with neither in this scenario
     * @param inapplicable servers without samples marked not applicable in every variant, in the
     *     order the run described them; in no table or chart
     * @param variantResults per variant, in {@code variants} order
     * @param samples every sample of the scenario, as recorded (for the long CSV)
     * @param serverCpus the CPUs its samples' servers were pinned to, ascending: two when the passes
     *     alternated the assignment, one when they did not (or one pass ran), none when not recorded
     */
    record ScenarioResult(ScenarioInfo info, String fileBase, List<MetricInfo> metrics, List<String> variants,
                          List<ServerInfo> servers, List<ServerInfo> missing, List<Inapplicable> inapplicable,
                          List<VariantResult> variantResults, List<Sample> samples, List<Integer> serverCpus) {
        /** Whether the scenario was measured with the server on more than one CPU: then each CPU's median is shown too. */
        boolean perServerCpu() {
            return serverCpus.size() > 1;
        }

        VariantResult variant(String name) {
            return variantResults.stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
        }

        /** How many passes the scenario's cells summarize, over all variants. */
        String passes() {
            return Aggregation.passes(variantResults.stream().flatMap(v -> v.entries().stream()));
        }

        /** The primary metric if it has samples, else {@code null}: ratios and bars need it. */
        MetricInfo primary() {
            MetricInfo primary = info.primary();
            return metrics.contains(primary) ? primary : null;
        }
    }

    private final RunResults results;
    private final List<ScenarioResult> scenarios = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    private Aggregation(RunResults results) {
        this.results = results;
    }

    /** Summarizes {@code results}. */
    static Aggregation of(RunResults results) {
        Aggregation a = new Aggregation(results);
        a.problems.addAll(results.problems());
        List<Sample> samples = results.samples();
        Set<String> declared = new LinkedHashSet<>();
        Set<String> bases = new LinkedHashSet<>();
        for (ScenarioInfo info : results.scenarios()) {
            declared.add(info.name());
            List<Sample> own = samples.stream().filter(s -> s.scenario().equals(info.name())).toList();
            String base = unique(bases, Format.slug(info.name()).isEmpty() ? "scenario" : Format.slug(info.name()));
            a.scenarios.add(a.scenario(info, base, own));
        }
        Map<String, Integer> undeclared = new LinkedHashMap<>();
        for (Sample s : samples) if (!declared.contains(s.scenario())) undeclared.merge(s.scenario(), 1, Integer::sum);
        undeclared.forEach((name, n) -> a.problems.add(
                "report: " + n + " samples of scenario '" + name + "', which the run did not declare, are not reported"));
        return a;
    }

    /** The run. */
    RunResults results() {
        return results;
    }

    /** The declared scenarios, in the run's order. */
    List<ScenarioResult> scenarios() {
        return scenarios;
    }

    /** The run's problems, then those the aggregation found. */
    List<String> problems() {
        return problems;
    }

    /**
     * The ratio of {@code value} to {@code reference} such that above 1 is always better than the
     * reference: value/reference when higher is better, reference/value when lower is better. NaN
     * when the division has no meaning (a zero or missing denominator).
     */
    static double ratio(MetricInfo metric, double value, double reference) {
        double num = metric.higherIsBetter() ? value : reference;
        double den = metric.higherIsBetter() ? reference : value;
        if (!Double.isFinite(num) || !Double.isFinite(den) || den == 0) return Double.NaN;
        return num / den;
    }

    /** {@code 1 pass}, {@code 3 passes}, or {@code 2–3 passes} when a pass failed for some server. */
    private static String passes(java.util.stream.Stream<Entry> entries) {
        var counts = entries.flatMap(e -> e.summaries().values().stream()).mapToInt(Summary::count).summaryStatistics();
        if (counts.getCount() == 0) return "0 passes";
        if (counts.getMin() == counts.getMax()) return counts.getMin() == 1 ? "1 pass" : counts.getMin() + " passes";
        return counts.getMin() + "–" + counts.getMax() + " passes";
    }

    /**
     * {@code base}, or {@code base-2}, {@code base-3}... when taken: two names can slug alike
     * ({@code 1000 users} and {@code 1000-users}) and one file must not overwrite another.
     */
    static String unique(Set<String> taken, String base) {
        String name = base;
        for (int i = 2; !taken.add(name); i++) name = base + "-" + i;
        return name;
    }

    /** Orders medians best-first for {@code metric}. */
    static Comparator<Double> bestFirst(MetricInfo metric) {
        return metric.higherIsBetter() ? Comparator.reverseOrder() : Comparator.naturalOrder();
    }

    /** Groups in table order; an undescribed server (null group) comes last. */
    static int groupRank(Group group) {
        return group == null ? 3 : switch (group) {
            case BASELINE -> 0;
            case PETREL -> 1;
            case PEER -> 2;
        };
    }

    private ScenarioResult scenario(ScenarioInfo info, String base, List<Sample> own) {
        Map<String, MetricInfo> declaredMetrics = new LinkedHashMap<>();
        for (MetricInfo m : info.metrics()) declaredMetrics.put(m.key(), m);

        // variant -> server -> metric -> finite values, in order of appearance
        Map<String, Map<String, Map<String, List<Double>>>> values = new LinkedHashMap<>();
        // the same split by the server's CPU: variant -> server -> CPU -> metric -> values
        Map<String, Map<String, Map<Integer, Map<String, List<Double>>>>> byCpu = new LinkedHashMap<>();
        Set<Integer> cpus = new java.util.TreeSet<>();
        Map<String, Integer> undeclaredMetrics = new LinkedHashMap<>();
        Set<String> measuredMetrics = new LinkedHashSet<>();
        Set<String> serverNames = new LinkedHashSet<>();
        Set<String> sampled = new LinkedHashSet<>();
        int nonFinite = 0;
        for (Sample s : own) {
            if (!declaredMetrics.containsKey(s.metric())) {
                undeclaredMetrics.merge(s.metric(), 1, Integer::sum);
                continue;
            }
            if (!Double.isFinite(s.value())) {
                nonFinite++;
                continue;
            }
            measuredMetrics.add(s.metric());
            serverNames.add(s.server());
            sampled.add(s.server());
            values.computeIfAbsent(s.variant(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(s.server(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(s.metric(), k -> new ArrayList<>()).add(s.value());
            if (s.serverCpu() == Sample.UNKNOWN_CPU) continue;
            cpus.add(s.serverCpu());
            byCpu.computeIfAbsent(s.variant(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(s.server(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(s.serverCpu(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(s.metric(), k -> new ArrayList<>()).add(s.value());
        }
        undeclaredMetrics.forEach((key, n) -> problems.add("report: scenario '" + info.name() + "': metric '" + key
                + "' is not declared; its " + n + " samples are in " + base + ".csv only"));
        if (nonFinite > 0) problems.add("report: scenario '" + info.name() + "': " + nonFinite
                + " non-finite values (NaN or infinite) are left out of the summaries");

        // variant -> server -> why it can have no figure there
        Map<String, Map<String, String>> notApplicable = new LinkedHashMap<>();
        for (NotApplicable n : results.notApplicable()) {
            if (!n.scenario().equals(info.name())) continue;
            notApplicable.computeIfAbsent(n.variant(), k -> new LinkedHashMap<>()).putIfAbsent(n.server(), n.reason());
            serverNames.add(n.server());
        }

        List<MetricInfo> metrics = info.metrics().stream().filter(m -> measuredMetrics.contains(m.key())).toList();
        List<String> variants = new ArrayList<>(info.variants().stream()
                .filter(v -> values.containsKey(v) || notApplicable.containsKey(v)).toList());
        for (String v : values.keySet()) if (!variants.contains(v)) variants.add(v);
        for (String v : notApplicable.keySet()) if (!variants.contains(v)) variants.add(v);

        // a server with no sample that is not applicable in every variant: said once, not in every table
        Map<String, String> everywhere = new LinkedHashMap<>();
        for (String name : serverNames) {
            if (sampled.contains(name) || variants.isEmpty()) continue;
            if (variants.stream().allMatch(v -> notApplicable.getOrDefault(v, Map.of()).containsKey(name))) {
                everywhere.put(name, notApplicable.get(variants.getFirst()).get(name));
            }
        }
        serverNames.removeAll(everywhere.keySet());

        List<ServerInfo> servers = new ArrayList<>();
        List<ServerInfo> missing = new ArrayList<>();
        List<Inapplicable> inapplicable = new ArrayList<>();
        for (ServerInfo described : results.servers()) {
            if (serverNames.contains(described.name())) servers.add(described);
            else if (everywhere.containsKey(described.name())) {
                inapplicable.add(new Inapplicable(described, everywhere.remove(described.name())));
            } else missing.add(described);
        }
        // marked but never described: still said, with what is known
        everywhere.forEach((name, reason) -> inapplicable.add(
                new Inapplicable(new ServerInfo(name, null, "(not described by the run)", null), reason)));
        for (String name : serverNames) {
            if (results.server(name) != null) continue;
            servers.add(new ServerInfo(name, null, "(not described by the run)", null));
            problems.add("report: scenario '" + info.name() + "': server '" + name
                    + "' has samples but the run did not describe it; shown with group unknown");
        }
        // stable: within a group the run's order stays
        servers.sort(Comparator.comparingInt(s -> groupRank(s.group())));

        MetricInfo primary = metrics.contains(info.primary()) ? info.primary() : null;
        List<VariantResult> variantResults = new ArrayList<>();
        for (String v : variants) {
            variantResults.add(variant(v, values.getOrDefault(v, Map.of()), byCpu.getOrDefault(v, Map.of()),
                    notApplicable.getOrDefault(v, Map.of()), servers, primary));
        }
        return new ScenarioResult(info, base, metrics, List.copyOf(variants), List.copyOf(servers), List.copyOf(missing),
                List.copyOf(inapplicable), List.copyOf(variantResults), own, List.copyOf(cpus));
    }

    private static VariantResult variant(String name, Map<String, Map<String, List<Double>>> byServer,
                                         Map<String, Map<Integer, Map<String, List<Double>>>> byServerAndCpu,
                                         Map<String, String> notApplicable, List<ServerInfo> servers,
                                         MetricInfo primary) {
        Map<String, Map<String, Summary>> summaries = new LinkedHashMap<>();
        for (ServerInfo server : servers) {
            Map<String, Summary> own = new LinkedHashMap<>();
            byServer.getOrDefault(server.name(), Map.of()).forEach((metric, list) -> own.put(metric, Summary.of(list)));
            summaries.put(server.name(), own);
        }

        ServerInfo baseline = null, bestPeer = null;
        double baselineMedian = Double.NaN, bestPeerMedian = Double.NaN;
        if (primary != null) {
            for (ServerInfo server : servers) {
                Summary s = summaries.get(server.name()).get(primary.key());
                if (s == null) continue;
                if (server.group() == Group.BASELINE && baseline == null) {
                    baseline = server;
                    baselineMedian = s.median();
                }
                // strictly better, so a tie keeps the peer the run described first
                if (server.group() == Group.PEER && (bestPeer == null
                        || bestFirst(primary).compare(s.median(), bestPeerMedian) < 0)) {
                    bestPeer = server;
                    bestPeerMedian = s.median();
                }
            }
        }

        List<Entry> entries = new ArrayList<>();
        for (ServerInfo server : servers) {
            Map<String, Summary> own = summaries.get(server.name());
            Summary p = primary == null ? null : own.get(primary.key());
            double toBaseline = p == null || baseline == null ? Double.NaN : ratio(primary, p.median(), baselineMedian);
            double toBestPeer = p == null || bestPeer == null ? Double.NaN : ratio(primary, p.median(), bestPeerMedian);
            Map<Integer, Map<String, Summary>> perCpu = new java.util.TreeMap<>();
            byServerAndCpu.getOrDefault(server.name(), Map.of()).forEach((cpu, metrics) -> {
                Map<String, Summary> summarized = new LinkedHashMap<>();
                metrics.forEach((metric, list) -> summarized.put(metric, Summary.of(list)));
                perCpu.put(cpu, Map.copyOf(summarized));
            });
            entries.add(new Entry(server, Map.copyOf(own), toBaseline, toBestPeer, server == bestPeer,
                    notApplicable.get(server.name()), java.util.Collections.unmodifiableMap(perCpu)));
        }
        entries.sort(tableOrder(primary));
        return new VariantResult(name, List.copyOf(entries), baseline, bestPeer);
    }

    /**
     * Servers with a result first; among them by group, then best-first by the primary median;
     * servers lacking the primary metric after those of their group. The sort is stable, so
     * everything else keeps the run's order.
     */
    private static Comparator<Entry> tableOrder(MetricInfo primary) {
        Comparator<Entry> order = Comparator.comparing(e -> !e.hasResult());
        order = order.thenComparingInt(e -> groupRank(e.server().group()));
        if (primary == null) return order;
        Comparator<Double> best = Comparator.nullsLast(bestFirst(primary));
        return order.thenComparing(e -> {
            Summary s = e.summary(primary.key());
            return s == null ? null : s.median();
        }, best);
    }
}
