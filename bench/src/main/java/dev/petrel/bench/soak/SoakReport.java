package dev.petrel.bench.soak;

import dev.petrel.bench.model.ServerInfo.Group;
import dev.petrel.bench.report.LineChart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * Writes a soak's figures: per server, its readings ({@code samples-SERVER.csv}), its latency per
 * minute ({@code latency-SERVER.csv}), its faults ({@code faults-SERVER.txt}) and every request
 * that failed or was lost, with the fault near it if any ({@code failures-SERVER.txt}); for all, the
 * charts ({@code *.svg}, a line per server) and {@code soak.md} with the verdicts.
 */
final class SoakReport {
    private SoakReport() {}

    static void write(Path dir, List<SoakRun> runs, List<SoakVerdict> verdicts, SoakOptions options) throws IOException {
        Files.createDirectories(dir);
        for (SoakRun run : runs) {
            Files.write(dir.resolve("samples-" + run.label() + ".csv"), samplesCsv(run));
            Files.write(dir.resolve("latency-" + run.label() + ".csv"), latencyCsv(run));
            List<String> faults = new ArrayList<>();
            for (SoakFault f : run.faults) {
                faults.add(SoakRun.clock((f.start() - run.trafficStart) / 1e9) + " " + f.name() + " " + f.listeners() + ": " + f.detail());
            }
            Files.write(dir.resolve("faults-" + run.label() + ".txt"), faults);
            Files.write(dir.resolve("failures-" + run.label() + ".txt"), failures(run));
        }
        List<String> charts = new ArrayList<>();
        charts.add(chart(dir, "rss", "Resident set", "MiB", runs, SoakSample::rssMib));
        charts.add(chart(dir, "heap", "Heap after a full GC", "MiB", runs, SoakSample::heapMib));
        charts.add(chart(dir, "native", "Native memory committed (NMT)", "MiB", runs, SoakSample::nativeMib));
        charts.add(chart(dir, "fds", "Open file descriptors", "count", runs, SoakSample::fds));
        charts.add(chart(dir, "connections", "Connections established on the server's ports", "count", runs, SoakSample::established));
        charts.add(chart(dir, "threads", "Threads", "count", runs, SoakSample::threads));
        charts.add(latencyChart(dir, runs));

        List<String> md = new ArrayList<>();
        md.add("# Soak: " + options.minutes() + " minutes per server" + (options.quick() ? " (--quick)" : "") + ", seed " + options.seed());
        md.add("");
        md.add("Command: `./petrel bench soak --minutes " + options.minutes() + (options.quick() ? " --quick" : "") + " --seed " + options.seed()
                + " --servers " + String.join(",", options.servers()) + "`; " + options.rate() + " operations/s of the soak's own clients, "
                + "an h2load burst a minute, a fault every few seconds; a reading every " + SoakSampler.INTERVAL.toSeconds() + " s.");
        md.add("");
        md.add("```");
        verdicts.forEach(v -> md.addAll(v.lines));
        md.add("```");
        md.add("");
        md.add("| server | faults injected, by kind |");
        md.add("|---|---|");
        for (SoakRun run : runs) md.add("| " + run.label() + " | " + SoakJudge.faultCounts(run).toString().replaceAll("[{}]", "") + " |");
        md.add("");
        for (String chart : charts) md.add("![" + chart + "](" + chart + ")");
        Files.write(dir.resolve("soak.md"), md);
    }

    private static List<String> failures(SoakRun run) {
        List<String> lines = new ArrayList<>();
        for (SoakOutcome o : run.outcomes) {
            if (o.failed() + o.lost() == 0) continue;
            String near = run.faults.stream().filter(f -> f.explains(o)).findFirst()
                    .map(f -> "near " + f.name() + " at " + SoakRun.clock((f.start() - run.trafficStart) / 1e9)).orElse("no fault near it");
            lines.add(SoakRun.clock((o.start() - run.trafficStart) / 1e9) + " " + o.route().name() + " " + o.operation()
                    + (o.lost() > 0 ? " LOST: " : " failed: ") + o.failure() + " [" + near + "]");
        }
        return lines;
    }

    private static List<String> samplesCsv(SoakRun run) {
        TreeSet<String> names = new TreeSet<>(run.baseline.outstanding().keySet());
        List<String> lines = new ArrayList<>();
        lines.add("seconds,rss_mib,heap_mib,native_mib,other_native_mib,fds,threads,established,connections,websocket_sessions"
                + names.stream().map(n -> "," + n.replace(' ', '_')).reduce("", String::concat));
        List<SoakSample> all = new ArrayList<>();
        all.add(run.baseline);
        all.addAll(run.samples);
        if (run.after != null) all.add(run.after);
        for (SoakSample s : all) {
            StringBuilder b = new StringBuilder();
            for (double d : new double[] {s.seconds(), s.rssMib(), s.heapMib(), s.nativeMib(), s.directMib(), s.fds(), s.threads(),
                    s.established(), s.connections(), s.sessions()}) {
                b.append(b.isEmpty() ? "" : ",").append(Double.isNaN(d) ? "" : String.format(Locale.ROOT, "%.1f", d));
            }
            for (String n : names) b.append(',').append(s.outstanding().getOrDefault(n, 0L));
            lines.add(b.toString());
        }
        return lines;
    }

    private static List<String> latencyCsv(SoakRun run) {
        List<String> lines = new ArrayList<>();
        lines.add("minute,p50_ms,p99_ms,max_ms");
        run.latencyPerMinute().forEach((minute, v) -> lines.add(String.format(Locale.ROOT, "%d,%.2f,%.2f,%.2f", minute, v[0], v[1], v[2])));
        return lines;
    }

    /** One figure over the traffic, a line per server: a point per reading in a short run, the minute's last reading in a long one. */
    private static String chart(Path dir, String file, String title, String unit, List<SoakRun> runs, ToDoubleFunction<SoakSample> value)
            throws IOException {
        boolean perMinute = runs.stream().anyMatch(r -> r.samples.size() > 40);
        TreeMap<String, Integer> slots = new TreeMap<>();
        List<Map<Integer, Double>> values = new ArrayList<>();
        int longest = 0;
        for (SoakRun run : runs) {
            Map<Integer, Double> points = new TreeMap<>();
            for (SoakSample s : run.samples) {
                int slot = perMinute ? (int) (s.seconds() / 60) : (int) Math.round(s.seconds() / SoakSampler.INTERVAL.toSeconds());
                points.put(slot, value.applyAsDouble(s));
                longest = Math.max(longest, slot);
            }
            values.add(points);
        }
        List<String> categories = new ArrayList<>();
        for (int i = 0; i <= longest; i++) categories.add(perMinute ? i + " min" : SoakRun.clock(i * SoakSampler.INTERVAL.toSeconds()));
        return render(dir, file, title, unit, runs, categories, values);
    }

    private static String latencyChart(Path dir, List<SoakRun> runs) throws IOException {
        List<Map<Integer, Double>> values = new ArrayList<>();
        int longest = 0;
        for (SoakRun run : runs) {
            Map<Integer, Double> points = new TreeMap<>();
            for (Map.Entry<Integer, double[]> e : run.latencyPerMinute().entrySet()) {
                points.put(e.getKey(), e.getValue()[1]);
                longest = Math.max(longest, e.getKey());
            }
            values.add(points);
        }
        List<String> categories = new ArrayList<>();
        for (int i = 0; i <= longest; i++) categories.add(i + " min");
        return render(dir, "p99", "p99 latency per minute", "ms", runs, categories, values);
    }

    private static String render(Path dir, String file, String title, String unit, List<SoakRun> runs, List<String> categories,
            List<Map<Integer, Double>> values) throws IOException {
        List<LineChart.Series> series = new ArrayList<>();
        for (int k = 0; k < runs.size(); k++) {
            List<Double> line = new ArrayList<>();
            for (int i = 0; i < categories.size(); i++) {
                Double v = values.get(k).get(i);
                line.add(v == null || v.isNaN() ? null : v);
            }
            boolean petrel = runs.get(k).label().equals("petrel");
            series.add(new LineChart.Series(runs.get(k).label(), petrel ? Group.PETREL : Group.PEER, k, line));
        }
        String name = file + ".svg";
        Files.writeString(dir.resolve(name), LineChart.render(title, "over the soak's traffic, warm-up included", unit, categories, series));
        return name;
    }
}
