package dev.petrel.testkit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A private Apache httpd (Debian's {@code apache2} package) in front of an AJP/1.3 backend,
 * through mod_jk or mod_proxy_ajp, for integration tests and the benchmark lab.
 *
 * <p>Nothing of the system's httpd is used: not {@code /etc/apache2}, not apache2ctl, not the
 * service. Each instance has its own ServerRoot (a temporary folder unless {@link
 * Builder#directory(Path)} names one), a config file written by the kit, its own pid file, logs,
 * runtime folder and mod_jk files, and listens on 127.0.0.1 only. httpd runs in the foreground as
 * a child process of this JVM, so its pid is known without trusting a file, the JVM reaps it when it
 * exits, and stopping it signals only processes this kit started.
 *
 * <pre>{@code
 * try (ApacheHttpd httpd = ApacheHttpd.builder(AjpModule.MOD_JK).backend("127.0.0.1", ajpPort).start()) {
 *     HttpResponse<String> r = client.send(HttpRequest.newBuilder(httpd.uri("/")).build(), ofString());
 * }
 * }</pre>
 *
 * <p>Layout of the ServerRoot: {@code httpd.conf}, {@code workers.properties} (mod_jk only),
 * {@code htdocs/} (empty: what is not forwarded is a 404), {@code logs/} ({@code error_log},
 * {@code httpd.pid}, {@code stdout.log} for what httpd prints before its error log is open, and for
 * mod_jk {@code mod_jk.log} and the {@code jk-runtime-status} shared memory), {@code run/} (the
 * runtime folder and mutexes).
 *
 * <p>Thread-safe: the methods that change the process's state are synchronized.
 */
public final class ApacheHttpd implements AutoCloseable {

    /** The AJP connector module httpd forwards through. */
    public enum AjpModule {
        /** mod_jk 1.2 (package {@code libapache2-mod-jk}), a worker of type ajp13. */
        MOD_JK,
        /** mod_proxy with mod_proxy_ajp (package {@code apache2-bin}), a ProxyPass to {@code ajp://}. */
        MOD_PROXY_AJP
    }

    static final Path BINARY = Path.of("/usr/sbin/apache2");
    static final Path MODULES = Path.of("/usr/lib/apache2/modules");
    private static final String APT_LINE = "apt-get install -y apache2 libapache2-mod-jk";

    /** How long start() and restart() wait for the port to accept. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
    /** How long httpd's children get after the SIGTERM to the parent before we SIGKILL them. */
    private static final Duration CHILD_GRACE = Duration.ofSeconds(2);
    /** How long httpd's parent gets after SIGTERM before we SIGKILL it. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);
    /** How long we wait for processes to vanish after our own SIGKILL. */
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);
    /** Starts that fail on "Address already in use" are retried this often (another process took the port). */
    private static final int BIND_ATTEMPTS = 5;
    private static final String WORKER = "petrel";
    private static final String STATUS_WORKER = "jkstatus";
    /** httpd listens on IPv4 loopback only; not getLoopbackAddress(), which may be ::1. */
    private static final InetAddress LOOPBACK = InetAddress.ofLiteral("127.0.0.1");

    /**
     * Instances whose httpd runs: stopped by a shutdown hook so that a test run that forgets
     * close(), or ends on an error, leaves no httpd behind (a SIGKILL of the JVM still does).
     */
    private static final Set<ApacheHttpd> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (ApacheHttpd httpd : RUNNING) httpd.stop();
        }, "petrel-httpd-shutdown"));
    }

    private final AjpModule module;
    private final Path root;
    private final boolean ownsRoot;
    private final boolean portChosen; // true when the kit picked the port and may pick another
    private final Settings settings;
    private volatile int port;

    // guarded by this
    private Process process;
    private long mainPid = -1;
    private boolean closed;

    private ApacheHttpd(AjpModule module, Path root, boolean ownsRoot, int port, Settings settings) {
        this.module = module;
        this.root = root;
        this.ownsRoot = ownsRoot;
        this.portChosen = port == 0;
        this.port = port;
        this.settings = settings;
    }

    /**
     * Why httpd cannot run on this machine, or empty when it can (both modules). Tests call it to
     * skip with this text as the reason instead of failing.
     *
     * @return the missing binary or modules, which package brings them and the apt-get line
     */
    public static Optional<String> unavailableReason() {
        if (!Files.isDirectory(Path.of("/proc/self"))) {
            return Optional.of("no /proc: the httpd test kit needs Linux (Debian's apache2 package)");
        }
        List<String> missing = new ArrayList<>();
        if (!Files.isExecutable(BINARY)) missing.add(BINARY + " (package apache2)");
        for (String[] m : new String[][] {
                {"mod_mpm_event.so", "apache2-bin"}, {"mod_authz_core.so", "apache2-bin"},
                {"mod_proxy.so", "apache2-bin"}, {"mod_proxy_ajp.so", "apache2-bin"},
                {"mod_jk.so", "libapache2-mod-jk"}}) {
            Path so = MODULES.resolve(m[0]);
            if (!Files.isRegularFile(so)) missing.add(so + " (package " + m[1] + ")");
        }
        if (missing.isEmpty()) return Optional.empty();
        return Optional.of("Apache httpd cannot run here, missing: " + String.join(", ", missing)
                + "; install with: " + APT_LINE);
    }

    /**
     * A builder for an httpd that forwards through {@code module}; {@link Builder#backend} is
     * required, everything else has a default.
     *
     * @param module mod_jk or mod_proxy_ajp
     * @return a new builder
     */
    public static Builder builder(AjpModule module) {
        return new Builder(Objects.requireNonNull(module, "module"));
    }

    /** The immutable part of the configuration, copied from the builder at start(). */
    private record Settings(String backendHost, int backendPort, String secret, int packetSize, String path,
                            boolean cping, int threadsPerChild, int maxRequestWorkers, String extraConfig,
                            List<BalancerMember> members, Duration recoverTime) {}

    /**
     * One backend of a mod_jk load balancer: an ajp13 worker named {@code route}, which is also the
     * route mod_jk reads from a session id's suffix to keep the session on it (a Tomcat's
     * {@code jvmRoute}).
     *
     * @param route letters, digits, {@code _} or {@code -}
     * @param host  a host name or IPv4 address
     * @param port  the backend's AJP port
     */
    public record BalancerMember(String route, String host, int port) {
        /** Checks the route can be a mod_jk worker name and the port is a port. */
        public BalancerMember {
            if (!route.matches("[A-Za-z0-9_-]+")) throw new IllegalArgumentException("not a worker name: " + route);
            if (!host.matches("[A-Za-z0-9.\\-]+")) throw new IllegalArgumentException("not a host: " + host);
            if (port < 1 || port > 65535) throw new IllegalArgumentException("port out of range: " + port);
        }
    }

    /** Configures and starts an {@link ApacheHttpd}. Not thread-safe; one builder per instance. */
    public static final class Builder {
        private final AjpModule module;
        private Path directory;
        private int port;
        private String backendHost;
        private int backendPort = -1;
        private String secret;
        private int packetSize = 8192;
        private String path = "/";
        private boolean cping;
        private int threadsPerChild = 25;
        private int maxRequestWorkers = 150;
        private final StringBuilder extraConfig = new StringBuilder();
        private List<BalancerMember> members = List.of();
        private Duration recoverTime = Duration.ofSeconds(60);

        private Builder(AjpModule module) {
            this.module = module;
        }

        /**
         * The ServerRoot to use, created if absent and kept by {@link #close()}. Default: a new
         * temporary folder, deleted by close(). When the JVM runs as root the folder's group becomes
         * httpd's run-as group (mode 0750), since httpd's children must reach {@code htdocs/} (its
         * parent folders too, or what is not forwarded gets 403 instead of 404).
         *
         * @param dir the folder; its path must not contain a double quote or a line break
         * @return this builder
         */
        public Builder directory(Path dir) {
            this.directory = Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize();
            return this;
        }

        /**
         * The port httpd listens on, on 127.0.0.1. Default 0: a free port picked by the kit, and
         * picked again if another process takes it before httpd binds it.
         *
         * @param port 0 to 65535
         * @return this builder
         */
        public Builder port(int port) {
            if (port < 0 || port > 65535) throw new IllegalArgumentException("port out of range: " + port);
            this.port = port;
            return this;
        }

        /**
         * The AJP backend httpd forwards to. Required.
         *
         * @param host a host name or IPv4 address, e.g. {@code 127.0.0.1}
         * @param port 1 to 65535
         * @return this builder
         */
        public Builder backend(String host, int port) {
            Objects.requireNonNull(host, "host");
            if (host.isBlank() || !host.matches("[A-Za-z0-9.\\-:\\[\\]]+")) {
                throw new IllegalArgumentException("not a host name or address: '" + host + "'");
            }
            if (port < 1 || port > 65535) throw new IllegalArgumentException("backend port out of range: " + port);
            this.backendHost = host;
            this.backendPort = port;
            return this;
        }

        /**
         * Forward to several backends through a mod_jk load balancer (a worker of type {@code lb}) instead
         * of one {@link #backend}: sticky sessions by route ({@code sticky_session}), a request moved to
         * another member when its member refuses the connection, fails the CPING/CPONG probe or drops it
         * before answering ({@code retries}), a member in error tried again after {@link #recoverTime},
         * and a read-only status worker on {@code /jkstatus} ({@link ApacheHttpd#balancerStatus()}).
         * Every member is probed with CPING/CPONG before each request ({@code ping_mode=A}), so that a
         * connection to a backend that is gone is found before a request is written to it. mod_jk only.
         *
         * @param members two or more, with distinct routes
         * @return this builder
         */
        public Builder balancer(List<BalancerMember> members) {
            if (module != AjpModule.MOD_JK) throw new IllegalStateException("a balancer is mod_jk's lb worker here");
            if (members.size() < 2) throw new IllegalArgumentException("a balancer needs two members or more");
            if (members.stream().map(BalancerMember::route).distinct().count() != members.size()) {
                throw new IllegalArgumentException("routes must differ: " + members);
            }
            this.members = List.copyOf(members);
            return this;
        }

        /**
         * How long a balancer member in error is left alone before mod_jk tries it again
         * ({@code recover_time}); default 60 s, mod_jk's. mod_jk's maintenance, which recovers them,
         * runs at most every minute by default, so the kit sets {@code worker.maintain=1} and
         * {@code JkWatchdogInterval 1}.
         *
         * @param time 1 s or more, whole seconds
         * @return this builder
         */
        public Builder recoverTime(Duration time) {
            if (time.toSeconds() < 1) throw new IllegalArgumentException("recover time is at least 1 s: " + time);
            this.recoverTime = time;
            return this;
        }

        /**
         * The shared AJP secret httpd sends to the backend in every forward request (attribute
         * 0x0C): mod_jk's {@code secret}, mod_proxy_ajp's {@code secret=}. Default null: none sent.
         *
         * @param secret null, or 1 to 200 printable ASCII characters without space, quotes, backslash,
         *               {@code #} or {@code $} (it is written unquoted into the config files, and mod_jk
         *               expands {@code $(name)} in property values)
         * @return this builder
         */
        public Builder secret(String secret) {
            if (secret != null && !secret.matches("[\\x21-\\x7E&&[^\"'\\\\#$]]{1,200}")) {
                throw new IllegalArgumentException("the secret must be 1 to 200 printable ASCII characters"
                        + " without space, quotes, backslash, '#' or '$'");
            }
            this.secret = secret;
            return this;
        }

        /**
         * The largest AJP packet httpd sends and accepts: mod_jk's worker {@code max_packet_size},
         * mod_proxy_ajp's {@code ProxyIOBufferSize}. Default 8192, AJP's classic size.
         *
         * @param bytes 8192 to 65536 (both modules clamp to that range and round to 1024)
         * @return this builder
         */
        public Builder packetSize(int bytes) {
            if (bytes < 8192 || bytes > 65536) {
                throw new IllegalArgumentException("packet size must be 8192 to 65536: " + bytes);
            }
            this.packetSize = bytes;
            return this;
        }

        /**
         * The URL prefix forwarded to the backend, unchanged (the backend sees the full path).
         * Default {@code "/"}: everything. Any other prefix matches whole path segments, the same
         * for both modules: {@code "/app"} forwards {@code /app} and {@code /app/...} but not
         * {@code /apple}; everything else is served by httpd from an empty document root (404).
         *
         * @param prefix starts with {@code /}; letters, digits and {@code . _ ~ ! & ( ) + , ; = : @ % / -}
         * @return this builder
         */
        public Builder path(String prefix) {
            Objects.requireNonNull(prefix, "prefix");
            if (!prefix.matches("/[A-Za-z0-9._~!&()+,;=:@%/-]*")) {
                throw new IllegalArgumentException("not a usable path prefix: '" + prefix + "'");
            }
            // one canonical form, so "/app" and "/app/" mean the same to both modules
            String p = prefix.replaceAll("/+", "/");
            while (p.length() > 1 && p.endsWith("/")) p = p.substring(0, p.length() - 1);
            this.path = p;
            return this;
        }

        /**
         * Whether httpd probes backend connections with CPING/CPONG: mod_jk's {@code ping_mode=A}
         * (after connecting, before each request, and on idle connections), mod_proxy_ajp's
         * {@code ping=5} (before each request, 5 s for the CPONG). Default false.
         *
         * @param on true to probe
         * @return this builder
         */
        public Builder cping(boolean on) {
            this.cping = on;
            return this;
        }

        /**
         * mpm_event's {@code ThreadsPerChild}. Default 25, httpd's default. mod_jk sizes its
         * connection pool per process from it.
         *
         * @param n 1 to 1024
         * @return this builder
         */
        public Builder threadsPerChild(int n) {
            if (n < 1 || n > 1024) throw new IllegalArgumentException("threadsPerChild must be 1 to 1024: " + n);
            this.threadsPerChild = n;
            return this;
        }

        /**
         * mpm_event's {@code MaxRequestWorkers}, rounded up to a multiple of threadsPerChild (httpd
         * would round it down with a warning). Default 150, httpd's default. All
         * {@code ceil(n / threadsPerChild)} children are started up front and kept, so that a
         * measurement never includes httpd spawning or reaping processes.
         *
         * @param n 1 to 20000
         * @return this builder
         */
        public Builder maxRequestWorkers(int n) {
            if (n < 1 || n > 20000) throw new IllegalArgumentException("maxRequestWorkers must be 1 to 20000: " + n);
            this.maxRequestWorkers = n;
            return this;
        }

        /**
         * Lines appended verbatim at the end of httpd.conf, after everything the kit writes (so a
         * single-valued directive here overrides the kit's). Each call appends; a line break is
         * added between calls.
         *
         * @param lines httpd configuration
         * @return this builder
         */
        public Builder extraConfig(String lines) {
            Objects.requireNonNull(lines, "lines");
            extraConfig.append(lines);
            if (!lines.endsWith("\n")) extraConfig.append('\n');
            return this;
        }

        /**
         * Writes the configuration, starts httpd and waits (at most 15 s) until its port accepts
         * connections. On failure nothing is left running and the temporary folder is deleted.
         *
         * @return the running instance; close it
         * @throws IOException if httpd is not installed, did not start (the message has the tail
         *                     of its error log), or the folder could not be written
         * @throws IllegalStateException if {@link #backend} was not called
         */
        public ApacheHttpd start() throws IOException {
            if (backendHost == null && members.isEmpty()) throw new IllegalStateException("backend(host, port) or balancer(...) is required");
            Optional<String> unavailable = unavailableReason();
            if (unavailable.isPresent()) throw new IOException(unavailable.get());
            int processes = (maxRequestWorkers + threadsPerChild - 1) / threadsPerChild;
            Settings settings = new Settings(backendHost, backendPort, secret, packetSize, path, cping,
                    threadsPerChild, processes * threadsPerChild, extraConfig.toString(), members, recoverTime);
            Path root;
            boolean owns = directory == null;
            if (owns) {
                root = Files.createTempDirectory("petrel-httpd-").toAbsolutePath();
            } else {
                root = directory;
                Files.createDirectories(root);
            }
            ApacheHttpd httpd = new ApacheHttpd(module, root, owns, port, settings);
            try {
                httpd.prepareRoot();
                httpd.launch(true);
                return httpd;
            } catch (IOException | RuntimeException e) {
                httpd.close();
                throw e;
            }
        }
    }

    /**
     * The connector module this httpd forwards through.
     *
     * @return the module
     */
    public AjpModule module() {
        return module;
    }

    /**
     * The port httpd listens on, on 127.0.0.1; the same across {@link #restart()}.
     *
     * @return the port
     */
    public int port() {
        return port;
    }

    /**
     * A URI on this httpd.
     *
     * @param pathAndQuery starts with {@code /}, e.g. {@code "/app/x?y=1"}, already encoded
     * @return {@code http://127.0.0.1:port} followed by {@code pathAndQuery}
     */
    public URI uri(String pathAndQuery) {
        if (!pathAndQuery.startsWith("/")) throw new IllegalArgumentException("must start with '/': " + pathAndQuery);
        return URI.create("http://127.0.0.1:" + port + pathAndQuery);
    }

    /**
     * The balancer's members as mod_jk's status worker reports them (its {@code mime=prop} form):
     * for each member, lines such as {@code worker.p1.activation=ACT}, {@code worker.p1.state=OK}
     * or {@code ERR}, {@code worker.p1.elected=...} and {@code worker.p1.errors=...}.
     *
     * @return the property lines
     * @throws IOException when httpd does not answer
     * @throws IllegalStateException without a {@link Builder#balancer}
     */
    public String balancerStatus() throws IOException {
        if (settings.members().isEmpty()) throw new IllegalStateException("no balancer");
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(LOOPBACK, port), 2000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(("GET /jkstatus?cmd=list&mime=prop HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            int body = answer.indexOf("\r\n\r\n");
            if (!answer.startsWith("HTTP/1.1 200") || body < 0) throw new IOException("jkstatus answered: " + answer);
            return answer.substring(body + 4);
        }
    }

    /**
     * The pid of httpd's main process, as its pid file gave it at the last (re)start. It stays
     * readable after {@link #stop()}, so that a test can check the process is gone.
     *
     * @return the main pid
     */
    public synchronized long mainPid() {
        return mainPid;
    }

    /**
     * The main process and its descendants (httpd's children) now, read from {@code /proc}, to
     * sample their CPU time in {@code /proc/PID/stat}. Empty when httpd is not running.
     *
     * @return the main pid first, then the others in ascending order
     */
    public List<Long> pids() {
        long main;
        synchronized (this) {
            if (process == null) return List.of();
            main = mainPid;
        }
        List<Long> pids = new ArrayList<>();
        pids.add(main);
        pids.addAll(descendants(main));
        return List.copyOf(pids);
    }

    /**
     * Stops httpd fully, then starts it again with the same config on the same port, and waits
     * until the port accepts. The backend sees its AJP connections close and new ones open, as
     * when a real front end is restarted. ({@code apache2 -k restart} would keep the parent and
     * its listening socket, which is not what such a test is after.)
     *
     * @throws IOException if httpd did not come back (the message has the error log's tail)
     * @throws IllegalStateException after {@link #close()}
     */
    public synchronized void restart() throws IOException {
        if (closed) throw new IllegalStateException("closed");
        stop();
        launch(false);
    }

    /**
     * Stops httpd and waits until its main process and children are gone: SIGTERM to the main
     * process (httpd then stops its children itself); SIGKILL to the children still there after
     * 2 s (a child whose threads are blocked on the backend, say a request in flight that the
     * backend does not answer, would otherwise hold httpd for many seconds); SIGKILL to the main
     * process too if it is still there after 5 s. Bounded (about 10 s at worst, well under a
     * second usually). Only processes this kit started are signalled. Does nothing when not running.
     */
    public synchronized void stop() {
        Process p = process;
        if (p == null) return;
        process = null;
        RUNNING.remove(this);
        // Taken before signalling: once the parent is gone, its children can no longer be found by parent pid.
        // ProcessHandle.of keeps each process's start time, so a later SIGKILL cannot hit a reused pid.
        List<ProcessHandle> tree = handles(descendants(p.pid()));
        boolean interrupted = false;
        try {
            p.destroy(); // SIGTERM: httpd's "stop", which ends children and removes the pid file
            if (!p.waitFor(CHILD_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                // What httpd itself does later (its own SIGKILL comes after several seconds): the
                // parent then reaps them, removes its pid file and exits cleanly.
                tree = merge(tree, handles(descendants(p.pid())));
                tree.forEach(ProcessHandle::destroyForcibly);
                if (!p.waitFor(STOP_GRACE.minus(CHILD_GRACE).toMillis(), TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException e) {
            interrupted = true;
            p.destroyForcibly(); // no more waiting: end everything now
        }
        try {
            // Children that outlived the parent (after a SIGKILL of it) are ended here.
            tree = merge(tree, handles(descendants(p.pid())));
            for (ProcessHandle h : tree) {
                if (isRunning(h.pid())) h.destroyForcibly();
            }
            long deadline = System.nanoTime() + KILL_WAIT.toNanos();
            while (System.nanoTime() < deadline && tree.stream().anyMatch(h -> isRunning(h.pid()))) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    interrupted = true;
                    break;
                }
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /**
     * httpd's error log, then for mod_jk its own log, then whatever httpd printed to stdout or
     * stderr (configuration errors found before the error log is open), each under a heading.
     * Everything since the ServerRoot was first used, across restarts.
     *
     * @return the text; empty sections are left out
     */
    public String errorLog() {
        StringBuilder text = new StringBuilder(read(errorLogFile()));
        if (module == AjpModule.MOD_JK) {
            String jk = read(jkLogFile());
            if (!jk.isEmpty()) text.append("--- mod_jk.log ---\n").append(jk);
        }
        String out = read(stdoutFile());
        if (!out.isEmpty()) text.append("--- httpd stdout/stderr ---\n").append(out);
        return text.toString();
    }

    /**
     * The ServerRoot: config, logs, pid file, runtime files.
     *
     * @return the absolute path
     */
    public Path serverRoot() {
        return root;
    }

    /** {@link #stop()}, then deletes the ServerRoot if the kit created it. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            stop();
        }
        if (ownsRoot) deleteTree(root);
    }

    @Override
    public String toString() {
        return "ApacheHttpd[" + module + ", 127.0.0.1:" + port + ", " + root + "]";
    }

    // ---- starting ----------------------------------------------------------------------------

    private Path conf() {
        return root.resolve("httpd.conf");
    }

    private Path logs() {
        return root.resolve("logs");
    }

    private Path pidFile() {
        return logs().resolve("httpd.pid");
    }

    private Path errorLogFile() {
        return logs().resolve("error_log");
    }

    private Path jkLogFile() {
        return logs().resolve("mod_jk.log");
    }

    private Path stdoutFile() {
        return logs().resolve("stdout.log");
    }

    /** Creates the folders and, as root, lets httpd's children (which drop to User/Group) reach them. */
    private void prepareRoot() throws IOException {
        String rootText = root.toString();
        if (rootText.contains("\"") || rootText.contains("\n") || rootText.contains("\r")) {
            throw new IOException("ServerRoot path cannot be written into httpd.conf: " + rootText);
        }
        Files.createDirectories(logs());
        Files.createDirectories(root.resolve("run"));
        Files.createDirectories(root.resolve("htdocs"));
        RunAs runAs = RunAs.detect();
        if (runAs != null) {
            // The temp folder is 0700 root: children running as www-data would get 403 for anything
            // not forwarded (and log "unable to check htaccess file"). Group access is enough;
            // logs are opened by the root parent before it forks, and mod_jk's shm is inherited.
            UserPrincipalLookupService lookup = root.getFileSystem().getUserPrincipalLookupService();
            GroupPrincipal group = lookup.lookupPrincipalByGroupName(runAs.group());
            for (Path dir : List.of(root, root.resolve("htdocs"), root.resolve("run"))) {
                Files.getFileAttributeView(dir, PosixFileAttributeView.class).setGroup(group);
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-x---"));
            }
        }
        Files.writeString(conf(), httpdConf(runAs));
        if (module == AjpModule.MOD_JK) Files.writeString(root.resolve("workers.properties"), workersProperties());
    }

    /**
     * Starts httpd, retrying when the port is taken, and waits until it is ready.
     *
     * @param mayMove whether a taken port may be replaced by another (only at the first start, and
     *                only when the kit picked it: restart() keeps the port)
     */
    private synchronized void launch(boolean mayMove) throws IOException {
        for (int attempt = 1; ; attempt++) {
            if (port == 0) port = freePort();
            rewriteListen();
            try {
                startOnce();
                RUNNING.add(this);
                return;
            } catch (PortTakenException e) {
                if (attempt >= BIND_ATTEMPTS) throw new IOException(e.getMessage(), e);
                if (mayMove && portChosen) {
                    port = 0; // another process took the port between our probe and httpd's bind: pick another
                } else {
                    sleep(250); // a fixed port: give its holder (maybe our own previous run) a moment
                }
            }
        }
    }

    /** Another process holds the port. */
    private static final class PortTakenException extends IOException {
        PortTakenException(String message) {
            super(message);
        }
    }

    /** One start: spawn, then poll until the pid file names our process and the port accepts. */
    private void startOnce() throws IOException {
        Files.deleteIfExists(pidFile()); // a stale one (after a SIGKILL) must not pass for ours
        long errorLogStart = size(errorLogFile());
        long stdoutStart = size(stdoutFile());
        long jkStart = size(jkLogFile());
        ProcessBuilder pb = new ProcessBuilder(BINARY.toString(), "-d", root.toString(), "-f", conf().toString(),
                "-DFOREGROUND");
        pb.directory(root.toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(stdoutFile().toFile()));
        pb.environment().put("LANG", "C"); // messages in English, whatever the caller's locale
        Process p = pb.start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String failure = null;
        while (true) {
            if (!p.isAlive()) {
                failure = "exited with status " + p.exitValue();
                break;
            }
            if (readPid() == p.pid() && accepts(port)) {
                process = p;
                mainPid = p.pid();
                return;
            }
            if (System.nanoTime() > deadline) {
                failure = "was not ready within " + START_TIMEOUT.toSeconds() + " s";
                break;
            }
            sleep(50);
        }
        // Not started: end it (bounded) before reporting, so that nothing is left behind.
        process = p;
        mainPid = p.pid();
        stop();
        String logs = tail(errorLogFile(), errorLogStart) + (module == AjpModule.MOD_JK ? tail(jkLogFile(), jkStart) : "")
                + tail(stdoutFile(), stdoutStart);
        String message = "httpd (" + module + ", " + conf() + ") on 127.0.0.1:" + port + " " + failure + "\n" + logs;
        if (logs.contains("Address already in use")) throw new PortTakenException(message);
        throw new IOException(message);
    }

    private long readPid() {
        try {
            String text = Files.readString(pidFile()).trim();
            return text.isEmpty() ? -1 : Long.parseLong(text);
        } catch (IOException | NumberFormatException e) {
            return -1; // not written yet, or being written
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(LOOPBACK, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, LOOPBACK)) {
            return s.getLocalPort();
        }
    }

    /** The port can change between attempts; only the Listen line depends on it. */
    private void rewriteListen() throws IOException {
        String conf = Files.readString(conf());
        String updated = conf.replaceFirst("(?m)^Listen 127\\.0\\.0\\.1:\\d+$", "Listen 127.0.0.1:" + port);
        if (!updated.equals(conf)) Files.writeString(conf(), updated);
    }

    // ---- configuration -----------------------------------------------------------------------

    /** The user and group httpd's children run as when the JVM is root (httpd refuses to serve as root). */
    private record RunAs(String user, String group) {
        static RunAs detect() throws IOException {
            if (effectiveUid() != 0) return null; // not root: children stay the same user, User/Group are ignored
            UserPrincipalLookupService lookup = Path.of("/").getFileSystem().getUserPrincipalLookupService();
            String user = exists(lookup, "www-data", false) ? "www-data" : "nobody";
            String group = exists(lookup, "www-data", true) ? "www-data" : exists(lookup, "nogroup", true) ? "nogroup" : "nobody";
            return new RunAs(user, group);
        }

        private static boolean exists(UserPrincipalLookupService lookup, String name, boolean group) throws IOException {
            try {
                if (group) lookup.lookupPrincipalByGroupName(name);
                else lookup.lookupPrincipalByName(name);
                return true;
            } catch (UserPrincipalNotFoundException e) {
                return false;
            }
        }

        private static long effectiveUid() throws IOException {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) return Long.parseLong(line.substring(4).trim().split("\\s+")[1]);
            }
            throw new IOException("no Uid line in /proc/self/status");
        }
    }

    private static String q(Path p) {
        return "\"" + p + "\"";
    }

    private String httpdConf(RunAs runAs) {
        Settings s = settings;
        int processes = s.maxRequestWorkers() / s.threadsPerChild();
        StringBuilder c = new StringBuilder();
        c.append("# Written by dev.petrel.testkit.ApacheHttpd: a private httpd, nothing from /etc/apache2.\n");
        c.append("ServerRoot ").append(q(root)).append('\n');
        c.append("PidFile ").append(q(pidFile())).append('\n');
        // Runtime files and mutexes stay in the root, not /var/run/apache2. fcntl locks live in
        // files, so a SIGKILLed httpd leaks no System V semaphore (Debian's default mechanism).
        c.append("DefaultRuntimeDir ").append(q(root.resolve("run"))).append('\n');
        c.append("Mutex \"fcntl:").append(root.resolve("run")).append("\" default\n");
        c.append("ErrorLog ").append(q(errorLogFile())).append('\n');
        c.append("LogLevel warn\n");
        c.append("Listen 127.0.0.1:").append(port).append('\n');
        c.append("ServerName 127.0.0.1\n");
        c.append("LoadModule mpm_event_module ").append(q(MODULES.resolve("mod_mpm_event.so"))).append('\n');
        c.append("LoadModule authz_core_module ").append(q(MODULES.resolve("mod_authz_core.so"))).append('\n');
        if (runAs != null) {
            c.append("User ").append(runAs.user()).append('\n');
            c.append("Group ").append(runAs.group()).append('\n');
        }
        c.append("\n# A fixed pool: every child is started up front and none is reaped when idle, so that\n")
                .append("# pids() is stable and no measurement includes httpd forking.\n");
        c.append("ServerLimit ").append(processes).append('\n');
        c.append("ThreadLimit ").append(s.threadsPerChild()).append('\n');
        c.append("ThreadsPerChild ").append(s.threadsPerChild()).append('\n');
        c.append("MaxRequestWorkers ").append(s.maxRequestWorkers()).append('\n');
        c.append("StartServers ").append(processes).append('\n');
        c.append("MinSpareThreads ").append(s.threadsPerChild()).append('\n');
        c.append("MaxSpareThreads ").append(s.maxRequestWorkers() + s.threadsPerChild()).append('\n');
        c.append("\n# What is not forwarded is looked up in an empty folder: 404.\n");
        c.append("DocumentRoot ").append(q(root.resolve("htdocs"))).append('\n');
        c.append("<Directory />\n    AllowOverride None\n    Require all denied\n</Directory>\n");
        c.append("<Directory ").append(q(root.resolve("htdocs"))).append(">\n    Require all granted\n</Directory>\n\n");
        if (module == AjpModule.MOD_JK) {
            c.append("LoadModule jk_module ").append(q(MODULES.resolve("mod_jk.so"))).append('\n');
            c.append("JkWorkersFile ").append(q(root.resolve("workers.properties"))).append('\n');
            c.append("JkShmFile ").append(q(logs().resolve("jk-runtime-status"))).append('\n');
            c.append("JkLogFile ").append(q(jkLogFile())).append('\n');
            c.append("JkLogLevel info\n"); // connection errors to the backend are logged at info and error
            if (!s.members().isEmpty()) {
                // mod_jk's maintenance (members in error recovered, idle connections probed) runs in
                // a thread every second, not at most once a minute from request threads
                c.append("JkWatchdogInterval 1\n");
                c.append("JkMount /jkstatus ").append(STATUS_WORKER).append('\n');
            }
            if (s.path().equals("/")) {
                c.append("JkMount /* ").append(WORKER).append('\n');
            } else {
                // "/app*" would also take "/apple"; two mounts give ProxyPass's segment semantics
                c.append("JkMount ").append(s.path()).append(' ').append(WORKER).append('\n');
                c.append("JkMount ").append(s.path()).append("/* ").append(WORKER).append('\n');
            }
        } else {
            c.append("LoadModule proxy_module ").append(q(MODULES.resolve("mod_proxy.so"))).append('\n');
            c.append("LoadModule proxy_ajp_module ").append(q(MODULES.resolve("mod_proxy_ajp.so"))).append('\n');
            // mod_proxy_ajp takes its AJP packet size from the server's ProxyIOBufferSize
            c.append("ProxyIOBufferSize ").append(s.packetSize()).append('\n');
            String target = "ajp://" + hostForUrl(s.backendHost()) + ":" + s.backendPort()
                    + (s.path().equals("/") ? "/" : s.path());
            c.append("ProxyPass \"").append(s.path()).append("\" \"").append(target).append('"');
            if (s.secret() != null) c.append(" secret=").append(s.secret());
            if (s.cping()) c.append(" ping=5");
            c.append('\n');
        }
        if (!s.extraConfig().isEmpty()) {
            c.append("\n# extraConfig\n").append(s.extraConfig());
        }
        return c.toString();
    }

    private static String hostForUrl(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    private String workersProperties() {
        Settings s = settings;
        if (!s.members().isEmpty()) return balancerWorkers();
        String w = "worker." + WORKER + ".";
        StringBuilder p = new StringBuilder();
        p.append("# Written by dev.petrel.testkit.ApacheHttpd\n");
        p.append("worker.list=").append(WORKER).append('\n');
        p.append(w).append("type=ajp13\n");
        p.append(w).append("host=").append(s.backendHost()).append('\n');
        p.append(w).append("port=").append(s.backendPort()).append('\n');
        p.append(w).append("max_packet_size=").append(s.packetSize()).append('\n');
        if (s.secret() != null) p.append(w).append("secret=").append(s.secret()).append('\n');
        if (s.cping()) p.append(w).append("ping_mode=A\n");
        return p.toString();
    }

    /** An lb worker over ajp13 members, with sticky sessions, failover and a status worker. */
    private String balancerWorkers() {
        Settings s = settings;
        String lb = "worker." + WORKER + ".";
        StringBuilder p = new StringBuilder();
        p.append("# Written by dev.petrel.testkit.ApacheHttpd: a load balancer over ")
                .append(s.members().size()).append(" AJP backends\n");
        p.append("worker.list=").append(WORKER).append(',').append(STATUS_WORKER).append('\n');
        // the maintenance that recovers members in error runs this often (default 60 s), driven by JkWatchdogInterval
        p.append("worker.maintain=1\n");
        for (BalancerMember m : s.members()) {
            String w = "worker." + m.route() + ".";
            p.append(w).append("type=ajp13\n");
            p.append(w).append("host=").append(m.host()).append('\n');
            p.append(w).append("port=").append(m.port()).append('\n');
            p.append(w).append("max_packet_size=").append(s.packetSize()).append('\n');
            if (s.secret() != null) p.append(w).append("secret=").append(s.secret()).append('\n');
            // CPING before each request and on idle connections: a connection to a backend that went
            // away is found before a request is written to it, and the request goes to another member
            p.append(w).append("ping_mode=A\n");
            p.append(w).append("ping_timeout=2000\n");
            p.append(w).append("socket_connect_timeout=2000\n");
            // one attempt per member: the lb worker tries the next member at once, instead of this one
            // again after retry_interval (100 ms) when it refused the connection
            p.append(w).append("retries=1\n");
            // a backend that is stopping answers 503 to what reaches it after it stopped taking work
            // (Tomcat's paused connector): mod_jk then marks it in error and sends the request elsewhere
            p.append(w).append("fail_on_status=503\n");
        }
        p.append(lb).append("type=lb\n");
        p.append(lb).append("balance_workers=")
                .append(String.join(",", s.members().stream().map(BalancerMember::route).toList())).append('\n');
        p.append(lb).append("sticky_session=true\n");
        p.append(lb).append("retries=3\n");
        p.append(lb).append("recover_time=").append(s.recoverTime().toSeconds()).append('\n');
        p.append("worker.").append(STATUS_WORKER).append(".type=status\n");
        p.append("worker.").append(STATUS_WORKER).append(".read_only=true\n");
        return p.toString();
    }

    // ---- processes ---------------------------------------------------------------------------

    /** Descendants of {@code pid} (children, their children...) from /proc/PID/stat, ascending. */
    static List<Long> descendants(long pid) {
        Map<Long, List<Long>> children = new HashMap<>();
        try (DirectoryStream<Path> proc = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path dir : proc) {
                long[] stat = stat(dir);
                if (stat != null) children.computeIfAbsent(stat[1], k -> new ArrayList<>()).add(stat[0]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list /proc", e);
        }
        List<Long> found = new ArrayList<>();
        List<Long> todo = new ArrayList<>(List.of(pid));
        while (!todo.isEmpty()) {
            List<Long> kids = children.getOrDefault(todo.removeLast(), List.of());
            found.addAll(kids);
            todo.addAll(kids);
        }
        found.sort(Comparator.naturalOrder());
        return found;
    }

    /** {pid, ppid} of a live (non-zombie) process, or null if it is gone or a zombie. */
    private static long[] stat(Path procDir) {
        String text;
        try {
            text = Files.readString(procDir.resolve("stat"), StandardCharsets.ISO_8859_1);
        } catch (IOException | UncheckedIOException e) {
            return null; // exited meanwhile
        }
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'
        int close = text.lastIndexOf(')');
        if (close < 0) return null;
        String[] f = text.substring(close + 2).split(" ");
        if (f.length < 2 || f[0].equals("Z") || f[0].equals("X")) return null;
        try {
            return new long[] {Long.parseLong(text.substring(0, text.indexOf(' '))), Long.parseLong(f[1])};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Whether {@code pid} is a live process; a zombie (dead, not yet reaped by its parent) is not. */
    static boolean isRunning(long pid) {
        return stat(Path.of("/proc", Long.toString(pid))) != null;
    }

    private static List<ProcessHandle> handles(List<Long> pids) {
        List<ProcessHandle> handles = new ArrayList<>();
        for (long pid : pids) ProcessHandle.of(pid).ifPresent(handles::add);
        return handles;
    }

    private static List<ProcessHandle> merge(List<ProcessHandle> a, List<ProcessHandle> b) {
        List<ProcessHandle> all = new ArrayList<>(a);
        for (ProcessHandle h : b) if (a.stream().noneMatch(x -> x.pid() == h.pid())) all.add(h);
        return all;
    }

    // ---- files -------------------------------------------------------------------------------

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8); // replaces malformed bytes
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")\n";
        }
    }

    /** The last 40 lines written to {@code file} since {@code from}, under a heading; empty if none. */
    private static String tail(Path file, long from) {
        String text;
        try {
            byte[] bytes = Files.readAllBytes(file); // small: one start's worth of log lines
            int start = (int) Math.min(from, bytes.length);
            text = new String(bytes, start, bytes.length - start, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
        if (text.isBlank()) return "";
        List<String> lines = text.lines().toList();
        return "--- " + file.getFileName() + " (tail) ---\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())) + "\n";
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) return;
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException | UncheckedIOException e) {
            // best effort: a leftover temp folder is harmless, and close() must not throw
        }
    }

    private static void sleep(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while starting httpd");
        }
    }
}
