package dev.petrel.bench.soak;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads a soaked server's figures ({@link SoakSample}): {@code /proc/PID} for the resident set,
 * threads and file descriptors, {@code /proc/net/tcp} for the connections established on its ports; {@code jcmd} (the lab JDK's, which is the server's) for a full GC,
 * the heap after it and native memory tracking's summary; and Petrel's admin listener
 * ({@code /stats}) for live connections, WebSocket sessions and resources outstanding.
 */
final class SoakSampler {
    /** How often the soak reads its server. */
    static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Pattern USED = Pattern.compile("\\bused (\\d+)([KMG])\\b");
    private static final Pattern NMT_TOTAL = Pattern.compile("^Total: reserved=\\d+KB, committed=(\\d+)KB", Pattern.MULTILINE);
    private static final Pattern NMT_OTHER = Pattern.compile("^-\\s+Other \\(reserved=\\d+KB, committed=(\\d+)KB\\)", Pattern.MULTILINE);
    private static final Pattern STATUS_FIELD = Pattern.compile("^(VmRSS|Threads):\\s+(\\d+)", Pattern.MULTILINE);
    private static final Pattern JSON_NUMBER = Pattern.compile("\"([^\"]+)\":(\\d+)");

    private final long pid;
    private final Path jcmd;
    private final java.util.Set<Integer> ports;
    private final int adminPort;
    private final HttpClient admin;

    /**
     * @param pid       the server's process
     * @param jcmd      the JDK's jcmd
     * @param ports     the server's ports
     */
    SoakSampler(long pid, Path jcmd, SoakPorts ports) {
        this.pid = pid;
        this.jcmd = jcmd;
        this.ports = java.util.Set.copyOf(java.util.stream.IntStream.of(ports.plain(), ports.tlsJsse(), ports.tlsNative(), ports.proxy(),
                ports.ajp()).filter(p -> p > 0).boxed().toList());
        this.adminPort = ports.admin();
        this.admin = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
    }

    /** One reading, {@code seconds} into the traffic; the GC comes first, so that the other figures are read after it. */
    SoakSample read(double seconds) throws IOException, InterruptedException {
        jcmd("GC.run");
        double heap = mib(USED, jcmd("GC.heap_info"));
        String nmt = jcmd("VM.native_memory", "summary");
        double nativeMib = kibToMib(NMT_TOTAL, nmt);
        double directMib = kibToMib(NMT_OTHER, nmt);
        String status = Files.readString(Path.of("/proc", Long.toString(pid), "status"));
        double rss = Double.NaN;
        double threads = Double.NaN;
        Matcher m = STATUS_FIELD.matcher(status);
        while (m.find()) {
            if (m.group(1).equals("VmRSS")) rss = Long.parseLong(m.group(2)) / 1024.0;
            else threads = Long.parseLong(m.group(2));
        }
        double fds;
        try (Stream<Path> open = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            fds = open.count();
        }
        double established = established(Path.of("/proc/net/tcp")) + established(Path.of("/proc/net/tcp6"));
        double connections = Double.NaN;
        double sessions = Double.NaN;
        Map<String, Long> outstanding = new LinkedHashMap<>();
        if (adminPort > 0) {
            String stats = stats();
            Matcher n = JSON_NUMBER.matcher(stats);
            int inside = stats.indexOf("\"outstanding\"");
            while (n.find()) {
                long value = Long.parseLong(n.group(2));
                if (inside >= 0 && n.start() > inside) outstanding.put(n.group(1), value);
                else if (n.group(1).equals("connections")) connections = value;
                else if (n.group(1).equals("websocketSessions")) sessions = value;
            }
        }
        return new SoakSample(seconds, rss, heap, nativeMib, directMib, fds, threads, established, connections, sessions, outstanding);
    }

    /**
     * Established connections whose local port is one of the server's in a {@code /proc/net/tcp}
     * table: lines {@code sl local_address rem_address st ...}, the address as hex {@code IP:PORT},
     * {@code st} 01 for ESTABLISHED.
     */
    private long established(Path table) throws IOException {
        if (!Files.exists(table)) return 0;
        long n = 0;
        for (String line : Files.readAllLines(table)) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 4 || !f[3].equals("01")) continue;
            int colon = f[1].lastIndexOf(':');
            if (colon < 0) continue;
            try {
                if (ports.contains(Integer.parseInt(f[1].substring(colon + 1), 16))) n++;
            } catch (NumberFormatException header) {
                // the table's first line
            }
        }
        return n;
    }

    private String stats() throws IOException, InterruptedException {
        HttpResponse<String> r = admin.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/stats"))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) throw new IOException("/stats answered " + r.statusCode());
        return r.body();
    }

    private String jcmd(String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(Stream.concat(Stream.of(jcmd.toString(), Long.toString(pid)), Stream.of(command)).toList())
                .redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("jcmd " + String.join(" ", command) + " did not finish in 30 s");
        }
        if (p.exitValue() != 0) throw new IOException("jcmd " + String.join(" ", command) + " failed: " + out.strip());
        return out;
    }

    private static double mib(Pattern used, String text) {
        Matcher m = used.matcher(text);
        if (!m.find()) return Double.NaN;
        double value = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "K" -> value / 1024;
            case "M" -> value;
            default -> value * 1024;
        };
    }

    private static double kibToMib(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        return m.find() ? Long.parseLong(m.group(1)) / 1024.0 : Double.NaN;
    }

    void close() {
        admin.close();
    }
}
