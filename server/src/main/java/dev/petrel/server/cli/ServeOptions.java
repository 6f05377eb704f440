package dev.petrel.server.cli;

import dev.petrel.server.transport.TransportKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The options of {@code petrel serve}, parsed from the command line.
 *
 * @param host address to bind
 * @param port port to bind
 * @param root folder of static files, or {@code null} for the bundled demo site
 * @param transport how connections are served
 * @param maxConnections connections served at once, or -1 for the transport's default
 * @param queueTimeout how long the server may be full before it answers new connections 503
 * @param shutdownGrace how long in-flight requests may take after SIGTERM
 */
record ServeOptions(String host, int port, Path root, TransportKind transport, int maxConnections,
                    Duration queueTimeout, Duration shutdownGrace) {
    static final TransportKind DEFAULT_TRANSPORT = TransportKind.NIO;

    static final String HELP = """
            Usage: petrel serve [options]

            Serves the demo site: / answers HelloWorld, /date a page with the date,
            POST /echo echoes its body, everything else is a static file under --root.

            Options:
              --host ADDR             address to listen on (default 127.0.0.1; 0.0.0.0 for all)
              --port N                port (default 8080; 0 picks a free one)
              --root DIR              folder of static files (default: the bundled demo site)
              --transport NAME        %s (default %s)
              --max-connections N     connections served at once (default: %s)
              --queue-timeout SECS    how long new connections may wait for a slot when the
                                      server is full before they get 503 (default 10; 0: at once)
              --shutdown-grace SECS   time in-flight requests get on SIGTERM (default 10)
            """.formatted(TransportKind.names(), DEFAULT_TRANSPORT.cliName(), defaultLimits());

    private static String defaultLimits() {
        return java.util.Arrays.stream(TransportKind.values())
                .map(kind -> kind.defaultMaxConnections() + " " + kind.cliName())
                .collect(java.util.stream.Collectors.joining(", "));
    }

    static ServeOptions parse(List<String> args) throws UsageException {
        String host = "127.0.0.1";
        int port = 8080;
        Path root = null;
        TransportKind transport = DEFAULT_TRANSPORT;
        int maxConnections = -1;
        Duration queueTimeout = Duration.ofSeconds(10);
        Duration grace = Duration.ofSeconds(10);
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String name = arg;
            String value = null;
            int equals = arg.indexOf('=');
            if (arg.startsWith("--") && equals > 0) {
                name = arg.substring(0, equals);
                value = arg.substring(equals + 1);
            }
            switch (name) {
                case "--host" -> host = value != null ? value : next(args, ++i, name);
                case "--port" -> port = intIn(value != null ? value : next(args, ++i, name), name, 0, 65535);
                case "--root" -> root = Path.of(value != null ? value : next(args, ++i, name));
                case "--transport" -> {
                    try {
                        transport = TransportKind.fromCliName(value != null ? value : next(args, ++i, name));
                    } catch (IllegalArgumentException e) {
                        throw new UsageException(e.getMessage());
                    }
                }
                case "--max-connections" -> maxConnections = intIn(value != null ? value : next(args, ++i, name), name, 1, 1_000_000);
                case "--queue-timeout" -> queueTimeout = Duration.ofSeconds(intIn(value != null ? value : next(args, ++i, name), name, 0, 3600));
                case "--shutdown-grace" -> grace = Duration.ofSeconds(intIn(value != null ? value : next(args, ++i, name), name, 0, 3600));
                default -> throw new UsageException("unknown option '" + arg + "'");
            }
        }
        return new ServeOptions(host, port, root, transport, maxConnections, queueTimeout, grace);
    }

    private static String next(List<String> args, int i, String option) throws UsageException {
        if (i >= args.size()) throw new UsageException(option + " needs a value");
        return args.get(i);
    }

    private static int intIn(String text, String option, int min, int max) throws UsageException {
        try {
            int value = Integer.parseInt(text);
            if (value >= min && value <= max) return value;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + " takes a whole number from " + min + " to " + max + ", not '" + text + "'");
    }
}
