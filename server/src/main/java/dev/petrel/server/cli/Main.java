package dev.petrel.server.cli;

import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.Handler;
import dev.petrel.server.Server;
import dev.petrel.server.VirtualHosts;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import dev.petrel.server.Version;
import dev.petrel.server.demo.DemoSite;
import dev.petrel.server.Compression;
import dev.petrel.server.files.StaticFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The {@code petrel} command line. Errors are one line on standard error and a non-zero exit:
 * 2 for a command line that cannot be obeyed, 1 for a server that cannot start.
 */
public final class Main {
    private static final String USAGE = """
            Usage: petrel COMMAND [options]

            Commands:
              serve      run the server with the demo site (petrel serve --help)
              bench      the benchmark lab against the peers (petrel bench --help; run by ./petrel)
              jmh        the JMH microbenchmarks of the codec and the engine (petrel jmh -h; run by ./petrel)
              dist       build target/petrel-VERSION.tar.gz, which runs without Maven (run by ./petrel)
              version    print the version
              help       print this help
            """;

    private Main() {}

    /** Runs a command; exits the JVM with its status. */
    public static void main(String[] args) {
        configureLogFormat();
        refuseTlsRenegotiation();
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.print(USAGE);
            return 2;
        }
        String command = args.getFirst();
        List<String> rest = args.subList(1, args.size());
        try {
            return switch (command) {
                case "serve" -> {
                    if (rest.contains("--help") || rest.contains("-h")) {
                        out.print(ServeOptions.HELP);
                        yield 0;
                    }
                    ConfigSources.Merged given = ConfigSources.merge(rest, System.getenv());
                    yield serve(given.parse(), given.places(), err);
                }
                case "version", "--version" -> {
                    out.println("petrel " + Version.get());
                    yield 0;
                }
                case "help", "--help", "-h" -> {
                    out.print(USAGE);
                    yield 0;
                }
                case "bench" -> throw new UsageException("the lab runs through the launcher: ./petrel bench --help");
                case "jmh" -> throw new UsageException("the microbenchmarks run through the launcher: ./petrel jmh -h");
                case "dist" -> throw new UsageException("the distribution is built by the launcher of a source tree: ./petrel dist");
                default -> throw new UsageException("unknown command '" + command + "'");
            };
        } catch (UsageException e) {
            err.println("petrel: " + e.getMessage() + " (see 'petrel help')");
            return 2;
        }
    }

    /** Serves until SIGTERM; a mistake found on the way names the option where it was given (the command line, the file or the environment). */
    private static int serve(ServeOptions options, Places given, PrintStream err) {
        if (options.logLevel() != null) configureLogLevel(options.logLevel());
        System.Logger log = System.getLogger("dev.petrel.server");
        CountDownLatch stopRequested = new CountDownLatch(1);
        boolean signalsHandled;
        Server server;
        Server admin = null;
        String site;
        try {
            Path root = options.root() != null ? options.root() : DemoSite.bundledRoot();
            if (options.root() != null && !Files.isDirectory(root)) {
                err.println("petrel: " + given.of("root") + " " + root + " is not a folder");
                return 2;
            }
            // a folder of the user's is served as it is (its index.html at /); the demo routes only when asked
            boolean demo = options.root() == null || options.demo();
            site = (options.root() != null ? root.toAbsolutePath().toString() : "bundled demo site") + (demo ? "" : ", files only");
            StaticFiles files = new StaticFiles(root);
            for (Map.Entry<String, String> rule : options.cacheControl().entrySet()) files = files.cacheControl(rule.getKey(), rule.getValue());
            Handler app = demo ? DemoSite.handler(files, InstantSource.system()) : files;
            if (!options.vhosts().isEmpty()) {
                VirtualHosts.Builder hosts = VirtualHosts.builder().fallback(app);
                for (Map.Entry<String, Path> vhost : options.vhosts().entrySet()) {
                    if (!Files.isDirectory(vhost.getValue())) {
                        err.println("petrel: " + given.of("vhost") + " " + vhost.getKey() + "=" + vhost.getValue() + ": not a folder");
                        return 2;
                    }
                    StaticFiles hostFiles = new StaticFiles(vhost.getValue());
                    for (Map.Entry<String, String> rule : options.cacheControl().entrySet()) {
                        hostFiles = hostFiles.cacheControl(rule.getKey(), rule.getValue());
                    }
                    hosts.host(vhost.getKey(), hostFiles);
                }
                app = hosts.build();
                site += ", " + options.vhosts().size() + " virtual host" + (options.vhosts().size() == 1 ? "" : "s");
            }
            if (options.gzip()) app = Compression.gzip(app);
            Server.Builder builder = Server.builder()
                    .transport(options.transport())
                    .queueTimeout(options.queueTimeout())
                    .shutdownGrace(options.shutdownGrace())
                    .config(options.config())
                    .http2(options.http2())
                    .handler(app);
            if (options.maxConnections() > 0) builder.maxConnections(options.maxConnections());
            if (options.accessLog() != null) builder.accessLog(options.accessLog());
            if (options.adminPort() >= 0) builder.metrics(true);
            TlsConfig tls = null;
            if (options.https() != null) {
                tls = HttpsSetup.config(options.https(), log);
                builder.watchCertificates(!options.https().selfSigned());
            }
            AjpConfig ajp = options.ajp() != null ? options.ajp().config(System.getenv()) : null;
            for (ListenUrl listener : options.listeners()) {
                builder.connector(listener.connector(tls, ajp, options.proxyProtocol(), options.trustedProxies()));
            }
            // before the server accepts: a SIGTERM that comes as soon as it answers must stop it gracefully too
            signalsHandled = SignalHandling.onTermination(stopRequested::countDown);
            server = builder.start();
            if (options.adminPort() >= 0) {
                try {
                    admin = AdminListener.start(server, options.adminHost(), options.adminPort());
                } catch (IOException | RuntimeException e) {
                    server.stop(Duration.ZERO); // no server without the admin listener it was asked for
                    throw e;
                }
            }
        } catch (AjpOptions.SetupException e) {
            err.println("petrel: cannot serve AJP: " + given.where(e.getMessage()));
            return 2;
        } catch (TlsConfigException e) {
            err.println("petrel: cannot serve HTTPS: " + e.getMessage());
            return 1;
        } catch (SocketException e) {
            err.println("petrel: cannot listen on " + e.getMessage()); // the server names the address, of any listener
            return 1;
        } catch (FileSystemException e) {
            boolean accessLog = options.accessLog() != null && options.accessLog().file() != null
                    && options.accessLog().file().toString().equals(e.getFile());
            err.println("petrel: " + (accessLog ? given.of("access-log") + " " + e.getFile() + ": cannot open it: " : "cannot start: " + e.getFile() + ": ")
                    + FileProblem.reason(e));
            return 1;
        } catch (IOException e) {
            err.println("petrel: cannot start: " + e.getMessage());
            return 1;
        }

        if (!signalsHandled) {
            // Without signal handlers the JVM still runs shutdown hooks on SIGTERM (and exits with 143).
            Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(options.shutdownGrace())));
        }
        // SIGHUP reloads the certificates and reopens the access log (after logrotate); SIGUSR1 the log only
        Runnable onHangup = () -> {
            server.reopenAccessLog();
            if (server.servesHttps()) HttpsSetup.reload(server, log);
        };
        if ((server.servesHttps() || server.logsAccess()) && !SignalHandling.onHangup(onHangup)) {
            log.log(System.Logger.Level.INFO, "SIGHUP is ignored by this process (started with nohup?): "
                    + "certificates given with --tls-cert reload when their files change; SIGUSR1 reopens the access log");
        }
        if (server.logsAccess()) SignalHandling.onUserSignal(server::reopenAccessLog);
        long readyMillis = Duration.between(jvmStart(), Instant.now()).toMillis();
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < server.connectors().size(); i++) {
            InetSocketAddress address = server.addresses().get(i);
            urls.add(server.connectors().get(i).kind().name().toLowerCase(Locale.ROOT) + "://" + hostForUrl(address) + ":" + address.getPort() + "/");
        }
        if (admin != null) urls.add("admin http://" + hostForUrl(admin.address()) + ":" + admin.address().getPort() + "/health");
        String tls = server.servesHttps() ? ", TLS by " + server.tlsEngine() : "";
        log.log(System.Logger.Level.INFO, "Petrel {0} ready: transport={1}{5}, {2} serving {3}, in {4} ms since JVM start",
                Version.get(), options.transport().cliName(), String.join(" and ", urls), site, String.valueOf(readyMillis), tls);
        try {
            stopRequested.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        log.log(System.Logger.Level.INFO, "stopping: finishing requests in flight (up to {0} s)", options.shutdownGrace().toSeconds());
        boolean clean = server.stop(options.shutdownGrace()); // the admin listener says draining meanwhile
        if (admin != null) admin.stop(Duration.ofSeconds(1));
        log.log(System.Logger.Level.INFO, clean ? "stopped" : "stopped; connections still busy at the end of the grace period were closed");
        return 0;
    }

    private static String hostForUrl(InetSocketAddress address) {
        String host = address.getAddress().getHostAddress();
        return host.contains(":") ? "[" + host + "]" : host;
    }

    private static Instant jvmStart() {
        return ProcessHandle.current().info().startInstant().orElse(Instant.now());
    }

    /**
     * Has the JDK refuse a client's TLS 1.2 renegotiation inside the engine, with an alert. The
     * TLS endpoint refuses it too, by closing; this makes the refusal the JDK's own and earlier.
     * Set here rather than in the library: a system property is the whole process's choice.
     */
    private static void refuseTlsRenegotiation() {
        if (System.getProperty("jdk.tls.rejectClientInitiatedRenegotiation") == null) {
            System.setProperty("jdk.tls.rejectClientInitiatedRenegotiation", "true");
        }
    }

    /**
     * {@code --log-level} on java.util.logging, the JDK's backend of {@code System.Logger} (with
     * an SLF4J provider on the class path instead, its own configuration decides): the root
     * logger and its console handler, which filters at INFO by itself.
     */
    static void configureLogLevel(String level) {
        java.util.logging.Level jul = switch (level) {
            case "error" -> java.util.logging.Level.SEVERE;
            case "warn" -> java.util.logging.Level.WARNING;
            case "debug" -> java.util.logging.Level.FINE;
            case "trace" -> java.util.logging.Level.FINEST;
            default -> java.util.logging.Level.INFO;
        };
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        root.setLevel(jul);
        for (java.util.logging.Handler handler : root.getHandlers()) handler.setLevel(jul);
    }

    /** One line per record, unless the user configured java.util.logging already. */
    private static void configureLogFormat() {
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null
                && System.getProperty("java.util.logging.config.file") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tF %1$tT.%1$tL %4$s %3$s: %5$s%6$s%n");
        }
    }
}
