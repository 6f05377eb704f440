package dev.petrel.bench.lab;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The lab's WebSocket load tool: echo round trips over one connection, and messages a second over
 * many, against a server's WebSocket echo on 127.0.0.1. It runs as a JVM of its own pinned to the
 * load CPU, as the lab's fixed-rate generator does, so that its CPU is accounted like any tool's.
 *
 * <p>Why the lab's own, over raw sockets: no packaged tool measures what the scenario asks. A
 * round trip, as {@code ab -k -c1} measures one for HTTP, is closed-loop: the next message leaves
 * only when the last one is back. Debian's tcpkali (the one packaged tool that speaks WebSocket)
 * sends at a rate or as fast as it can whatever comes back, reads the server's stream as bytes
 * without framing it (so it can neither count echoed messages nor check them), and can hold
 * connections only for the run's duration, not while the lab reads a server's memory. The JDK's
 * {@code java.net.http.WebSocket} would frame, but spends far more per message than a server does
 * (a future, a listener call and a copy per message, and its own threads) and hides its writes and
 * reads: the client's cost is what a round trip subtracts from the C floor's, so it must be small
 * and plain. Here each message is a frame made once ({@link ClientFrame}), written with one
 * {@code write}, and the echo is framed by {@link ServerFrameDecoder} as it is read, checked for
 * its opcode and its length.
 *
 * <p>Usage: {@code WebSocketLoad PORT PATH LIMIT_SECONDS SERVER_PID STEP...}, with the steps run in
 * order (SERVER_PID 0: no server CPU is read):
 * <ul>
 *   <li>{@code check}: the echo's contract, once: a short text, a text with characters of 2 to 4
 *       UTF-8 bytes, 64 KiB binary, and 1 MiB of binary and of text, each whole and back unchanged
 *       with its own opcode ({@link EchoCheck}).</li>
 *   <li>{@code round-trip:KIND:SIZE:WARMUP:COUNT}: over one connection, WARMUP round trips not
 *       counted, then COUNT timed one at a time ({@link RoundTrips}). KIND is {@code text} (SIZE
 *       ASCII characters of "HelloWorld" repeated) or {@code binary} (SIZE random bytes).</li>
 *   <li>{@code rate:CONNECTIONS:KIND:SIZE:WARMUP_MS:DURATION_MS}: CONNECTIONS connections, each with
 *       one message in flight at a time, for WARMUP_MS then a measured DURATION_MS, the server's CPU
 *       time read from {@code /proc} at both ends of that window ({@link EchoRate}).</li>
 * </ul>
 * Each step prints one line on standard output, its spec then {@code key=value} pairs, or its
 * spec then {@code failed: REASON} ({@link WebSocketLoadOutput} reads them); the exit status is 0
 * when every step succeeded, 1 when one failed, 2 on bad arguments. Bounded: every wait ends by
 * {@code LIMIT_SECONDS} after the start, each step stops there, and the round-trip and rate steps
 * are bounded in count and time by their own arguments too.
 */
public final class WebSocketLoad {
    /** Where the tool connects: the lab's servers listen there only. */
    static final String HOST = "127.0.0.1";
    /** The longest a connect, a handshake or one echo may take before the step fails. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** The most connections a rate step may open. */
    static final int MAX_CONNECTIONS = 1_000;
    /** The most round trips a round-trip step may make. */
    static final int MAX_ROUND_TRIPS = 10_000_000;
    /** The largest message a step may send: the endpoint's limit, {@code LabWebSocket.MAX_MESSAGE_BYTES}. */
    static final int MAX_MESSAGE_BYTES = 1 << 20;
    /** The text every text message repeats, cut to its size. */
    static final String TEXT = "HelloWorld";

    /** A step of the run, {@link #spec()} being its argument as given. */
    sealed interface Step permits Check, RoundTrip, Rate {
        String spec();
    }

    /** {@code check}. */
    record Check() implements Step {
        @Override
        public String spec() {
            return "check";
        }
    }

    /** {@code round-trip:KIND:SIZE:WARMUP:COUNT}. */
    record RoundTrip(Kind kind, int size, int warmup, int count) implements Step {
        RoundTrip {
            checkSize(size);
            if (warmup < 0 || count < 1 || (long) warmup + count > MAX_ROUND_TRIPS) {
                throw new IllegalArgumentException("round trips: 0 or more to warm up, 1 or more timed, " + MAX_ROUND_TRIPS + " in all at most");
            }
        }

        @Override
        public String spec() {
            return "round-trip:" + kind.word() + ":" + size + ":" + warmup + ":" + count;
        }
    }

    /** {@code rate:CONNECTIONS:KIND:SIZE:WARMUP_MS:DURATION_MS}. */
    record Rate(int connections, Kind kind, int size, long warmupMs, long durationMs) implements Step {
        Rate {
            checkSize(size);
            if (connections < 1 || connections > MAX_CONNECTIONS) {
                throw new IllegalArgumentException("connections: 1 to " + MAX_CONNECTIONS + ", not " + connections);
            }
            if (warmupMs < 0 || durationMs < 1 || warmupMs + durationMs > 600_000) {
                throw new IllegalArgumentException("a rate step's warm-up and window: 10 minutes at most together");
            }
        }

        @Override
        public String spec() {
            return "rate:" + connections + ":" + kind.word() + ":" + size + ":" + warmupMs + ":" + durationMs;
        }
    }

    /** What a step's messages carry. */
    enum Kind {
        TEXT(ClientFrame.TEXT), BINARY(ClientFrame.BINARY);

        private final int opcode;

        Kind(int opcode) {
            this.opcode = opcode;
        }

        int opcode() {
            return opcode;
        }

        String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Kind of(String word) {
            for (Kind kind : values()) if (kind.word().equals(word)) return kind;
            throw new IllegalArgumentException("a message kind is text or binary, not '" + word + "'");
        }

        /** A payload of {@code size} bytes: "HelloWorld" repeated, or random bytes. */
        byte[] payload(int size, RandomGenerator random) {
            byte[] bytes = new byte[size];
            if (this == BINARY) {
                random.nextBytes(bytes);
            } else {
                byte[] text = WebSocketLoad.TEXT.getBytes(StandardCharsets.US_ASCII);
                for (int i = 0; i < size; i++) bytes[i] = text[i % text.length];
            }
            return bytes;
        }
    }

    /**
     * A whole run.
     *
     * @param server where the echo listens
     * @param path the echo's path
     * @param limit how long the whole run may take
     * @param serverPid the server's process, whose CPU time a rate step reads; 0 for none
     * @param steps the steps, in order
     */
    record Config(InetSocketAddress server, String path, Duration limit, long serverPid, List<Step> steps) {
        Config {
            steps = List.copyOf(steps);
            if (steps.isEmpty()) throw new IllegalArgumentException("no step");
            if (!path.startsWith("/")) throw new IllegalArgumentException("a path starts with '/': " + path);
            if (limit.isNegative() || limit.isZero() || limit.toMinutes() > 30) {
                throw new IllegalArgumentException("the limit is 1 s to 30 min, not " + limit.toSeconds() + " s");
            }
        }

        /** The command-line arguments that give this run. */
        List<String> arguments() {
            List<String> args = new ArrayList<>(List.of(Integer.toString(server.getPort()), path,
                    Long.toString(limit.toSeconds()), Long.toString(serverPid)));
            steps.forEach(s -> args.add(s.spec()));
            return args;
        }

        static Config parse(String[] args) {
            if (args.length < 5) throw new IllegalArgumentException("usage: WebSocketLoad PORT PATH LIMIT_SECONDS SERVER_PID STEP...");
            try {
                int port = Integer.parseInt(args[0]);
                if (port < 1 || port > 65_535) throw new IllegalArgumentException("no port " + port);
                List<Step> steps = new ArrayList<>();
                for (int i = 4; i < args.length; i++) steps.add(step(args[i]));
                return new Config(new InetSocketAddress(HOST, port), args[1], Duration.ofSeconds(Long.parseLong(args[2])),
                        Long.parseLong(args[3]), steps);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a number: " + e.getMessage(), e);
            }
        }

        private static Step step(String spec) {
            String[] parts = spec.split(":");
            return switch (parts[0]) {
                case "check" -> {
                    if (parts.length != 1) throw new IllegalArgumentException("check takes nothing: " + spec);
                    yield new Check();
                }
                case "round-trip" -> {
                    if (parts.length != 5) throw new IllegalArgumentException("round-trip:KIND:SIZE:WARMUP:COUNT, not " + spec);
                    yield new RoundTrip(Kind.of(parts[1]), Integer.parseInt(parts[2]), Integer.parseInt(parts[3]),
                            Integer.parseInt(parts[4]));
                }
                case "rate" -> {
                    if (parts.length != 6) throw new IllegalArgumentException("rate:CONNECTIONS:KIND:SIZE:WARMUP_MS:DURATION_MS, not " + spec);
                    yield new Rate(Integer.parseInt(parts[1]), Kind.of(parts[2]), Integer.parseInt(parts[3]),
                            Long.parseLong(parts[4]), Long.parseLong(parts[5]));
                }
                default -> throw new IllegalArgumentException("unknown step '" + spec + "' (check, round-trip:..., rate:...)");
            };
        }
    }

    private static void checkSize(int size) {
        if (size < 1 || size > MAX_MESSAGE_BYTES) throw new IllegalArgumentException("a message of 1 to " + MAX_MESSAGE_BYTES + " bytes, not " + size);
    }

    private WebSocketLoad() {}

    public static void main(String[] args) {
        Config config;
        try {
            config = Config.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("WebSocketLoad: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(run(config, System.out) ? 0 : 1);
    }

    /** Runs every step, one line each on {@code out}; whether all succeeded. */
    static boolean run(Config config, PrintStream out) {
        long deadline = System.nanoTime() + config.limit().toNanos();
        RandomGenerator random = new SplittableRandom();
        boolean allOk = true;
        for (Step step : config.steps()) {
            String line;
            try {
                line = switch (step) {
                    case Check c -> new EchoCheck(config, random).run(deadline);
                    case RoundTrip r -> new RoundTrips(config, r, random).run(deadline);
                    case Rate r -> new EchoRate(config, r, random).run(deadline);
                };
            } catch (IOException | RuntimeException e) {
                allOk = false;
                line = "failed: " + oneLine(e);
            }
            out.println(step.spec() + " " + line);
            out.flush();
        }
        return allOk;
    }

    /** {@code key=value} pairs, numbers with up to 3 decimals. */
    static String pairs(Object... keysAndValues) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            if (!text.isEmpty()) text.append(' ');
            Object value = keysAndValues[i + 1];
            String shown = value instanceof Double d ? String.format(Locale.ROOT, "%.3f", d) : String.valueOf(value);
            text.append(keysAndValues[i]).append('=').append(shown);
        }
        return text.toString();
    }

    private static String oneLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + e.getMessage();
        return message.replaceAll("\\s+", " ");
    }
}
