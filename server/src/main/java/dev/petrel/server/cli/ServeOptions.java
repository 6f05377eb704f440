package dev.petrel.server.cli;

import dev.petrel.ajp.AjpPackets;
import dev.petrel.server.AccessLog;
import dev.petrel.server.DataRate;
import dev.petrel.server.Http2Config;
import dev.petrel.server.ServerConfig;
import dev.petrel.server.TlsConfig;
import dev.petrel.server.TransportKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
 * @param plainHttp whether plain HTTP is served on {@code port}
 * @param https the HTTPS settings, or null for no HTTPS
 * @param ajp the AJP settings, or null for no AJP
 * @param config the engine's limits and timeouts
 * @param proxyProtocol whether HTTP and HTTPS connections must begin with a PROXY protocol header
 * @param trustedProxies the proxies trusted with PROXY headers and forwarding headers
 * @param accessLog the access log, or {@code null} for none
 * @param gzip whether responses of compressible types are gzipped for clients that accept it
 * @param cacheControl {@code Cache-Control} values by glob of a static file's path, in the order given
 * @param logLevel the lowest level logged: error, warn, info, debug or trace; null to leave the
 *        logging configuration as it is
 * @param adminHost the admin listener's address
 * @param adminPort the admin listener's port ({@code /health}, {@code /metrics}), or -1 for none
 * @param demo whether the demo routes ({@code GET /} HelloWorld, {@code /date}, {@code POST /echo})
 *        are served beside a {@code --root} folder; always with the bundled site
 * @param http2 whether HTTP/2 is spoken ({@code h2} over TLS, {@code h2c} with prior knowledge)
 */
record ServeOptions(String host, int port, Path root, TransportKind transport, int maxConnections,
                    Duration queueTimeout, Duration shutdownGrace, boolean plainHttp, HttpsOptions https, AjpOptions ajp,
                    ServerConfig config, boolean proxyProtocol, List<String> trustedProxies, AccessLog accessLog,
                    boolean demo, String logLevel, java.util.Map<String, String> cacheControl, boolean gzip,
                    String adminHost, int adminPort, Http2Config http2) {
    /** The levels of {@code --log-level}, quietest first. */
    static final List<String> LOG_LEVELS = List.of("error", "warn", "info", "debug", "trace");

    static final TransportKind DEFAULT_TRANSPORT = TransportKind.NIO;

    static final String HELP = """
            Usage: petrel serve [options]

            Serves the demo site: / answers HelloWorld, /date a page with the date,
            POST /echo echoes its body, everything else is a static file under --root.

            Options:
              --host ADDR             address to listen on (default 127.0.0.1; 0.0.0.0 for all)
              --port N                port (default 8080; 0 picks a free one)
              --root DIR              folder of static files, its index.html at / (default: the
                                      bundled demo site)
              --cache-control GLOB=VALUE
                                      Cache-Control for the static files whose path matches GLOB,
                                      e.g. 'assets/**=max-age=31536000, immutable' (repeatable;
                                      the first match wins)
              --gzip                  gzip text, JSON, JavaScript, XML and SVG responses of 1 KiB
                                      or more for clients that accept it (precompressed .br/.gz
                                      files beside the originals are served as they are)
              --demo                  with --root, also the demo routes: GET / HelloWorld,
                                      GET /date, POST /echo (always on for the bundled site)
              --transport NAME        %s (default %s)
              --max-connections N     connections served at once (default: %s)
              --queue-timeout SECS    how long new connections may wait for a slot when the
                                      server is full before they get 503 (default 10; 0: at once)
              --shutdown-grace SECS   time in-flight requests get on SIGTERM (default 10)

            Timeouts and limits:
              --header-timeout SECS   time for a request's whole head; slower gets 408 (default 10)
              --idle-timeout SECS     how long a keep-alive connection may wait for its next
                                      request (default 20)
              --body-read-timeout SECS
                                      longest wait for the next bytes of a request body (default 20)
              --write-timeout SECS    longest a response write may wait for the client (default 20)
              --max-requests-per-connection N
                                      then the connection closes (default 10000)
              --max-drain-bytes N     unread request body discarded to keep a connection
                                      (default 65536)
              --response-buffer-size BYTES
                                      body bytes buffered before the head is sent (default 16384)
              --max-body-size BYTES   largest request body; larger gets 413 (default 16777216)
              --max-request-line BYTES
                                      longest request line; longer gets 414 (default 8192)
              --max-header-size BYTES largest header section; larger gets 431 (default 16384)
              --max-headers N         most header lines; more gets 431 (default 100)

            Slow clients (each cut connection frees its slot):
              --min-body-rate N       bytes/s a request body must keep up with once it has kept
                                      the server waiting --rate-grace seconds; slower gets 408
                                      (default %d; 0: no minimum)
              --min-response-rate N   bytes/s a client must take a response at, per 16 KiB
                                      written, after --rate-grace; slower is cut (default %d; 0: none)
              --rate-grace SECS       waiting allowed before either rate counts (default %d)
              --body-timeout SECS     the most a whole request body may keep the server waiting
                                      (default 0: no limit beyond the rate)
              --head-timeout-when-full SECS
                                      while every connection slot is taken, connections that
                                      have waited this long for a request head are closed to
                                      make room (default %d)

            Configuration (command line over environment over file over defaults):
              --config FILE           a properties file: each option as a key without the dashes
                                      (port=8080, access-log=/var/log/petrel/access.log,
                                      proxy-protocol=true; repeated ones as trusted-proxy.1=...,
                                      trusted-proxy.2=...); each also as PETREL_PORT,
                                      PETREL_ACCESS_LOG, ... in the environment

            Logging (System.Logger; one line per record: date time LEVEL logger: message):
              --log-level LEVEL       error, warn, info (default), debug or trace

            Health and metrics (off by default; on an admin listener of their own):
              --admin-port N          serve GET /health (200 while serving, 503 while draining)
                                      and GET /metrics (Prometheus text format) on port N
              --admin-host ADDR       address for the admin listener (default 127.0.0.1,
                                      whatever --host says)

            Access log (off by default; written off the request path, reopened on SIGHUP and SIGUSR1):
              --access-log FILE|-     one line per request, appended to FILE or on standard output
              --access-log-format common|combined|json
                                      NCSA common, combined (with Referer and User-Agent; the
                                      default), or one JSON object per line

            HTTP/2 (RFC 9113; h2 is offered by ALPN on HTTPS, before http/1.1):
              --no-http2              HTTPS offers http/1.1 only
              --h2c                   also take HTTP/2 with prior knowledge on the plain port
                                      (curl --http2-prior-knowledge, h2load)
              --h2-max-streams N      requests in progress at once per connection; more are
                                      refused with REFUSED_STREAM (default %d)
              --h2-stream-window BYTES
                                      request body a stream may send ahead of the handler
                                      (default %d)
              --h2-connection-window BYTES
                                      the same for all streams of a connection (default %d)
              --h2-max-resets N       streams reset per second either way (rapid reset,
                                      MadeYouReset) before the connection is ended with GOAWAY
                                      ENHANCE_YOUR_CALM (default %d)
              --h2-max-control-frames N
                                      SETTINGS, PING and PRIORITY frames per second, the same
                                      way (default %d)
              --h2-max-empty-frames N frames per second that carry nothing, the same way
                                      (default %d)

            Behind a proxy (HAProxy, nginx, a load balancer):
              --trusted-proxy CIDR    a proxy in front, e.g. 10.0.0.0/8 or 127.0.0.1 (repeatable):
                                      its Forwarded and X-Forwarded-For/-Proto/-Host/-Port
                                      headers say who the client was; anyone else's are ignored
              --proxy-protocol        HTTP and HTTPS connections must begin with a PROXY protocol
                                      header (v1 or v2, as HAProxy's send-proxy sends it) from a
                                      --trusted-proxy; others are closed

            HTTPS (TLS 1.3 and 1.2, on the same transport):
              --https                 serve HTTPS too, on port %d unless --https-port says;
                                      without --tls-cert, with a self-signed certificate for
                                      localhost, made on first use and reused (its path and
                                      fingerprint are logged at start)
              --https-port N          serve HTTPS on port N (implies --https)
              --tls-cert FILE         certificate chain in PEM, or a PKCS#12 file (.p12/.pfx)
                                      holding the key too; repeat with --tls-key for several
                                      certificates, chosen by the name the client asks for (SNI)
              --tls-key FILE          the private key (PEM) of the --tls-cert before it
              --tls-password-file F   first line: the PKCS#12 password (default: the
                                      PETREL_TLS_PASSWORD environment variable, else empty)
              --tls-protocols LIST    TLS versions: TLSv1.3, TLSv1.2 or TLSv1.3,TLSv1.2 (the
                                      default); older ones are refused (deprecated, RFC 8996)
              --tls-ciphers LIST      cipher suites in the server's order of preference, by their
                                      IANA names (default: forward-secret AEAD suites)
              --tls-handshake-timeout SECS
                                      a client slower to finish its handshake is cut (default 10)
              --tls-engine jsse|native
                                      the TLS implementation: jsse, the JDK's (the default), or
                                      native, BoringSSL (petrel-tls-native), a full handshake in
                                      a fraction of the CPU time; if it cannot load, the server
                                      does not start
              --tls-ocsp-response F   staple this DER OCSP response (openssl ocsp -respout) for
                                      the first certificate; re-read when it changes (native
                                      engine only)
              --tls-client-auth none|want|need
                                      ask clients for a certificate (mutual TLS): want lets
                                      clients without one in, need refuses them (default none)
              --tls-trust FILE        what client certificates must chain to: PEM certificates,
                                      or a PKCS#12 store (password in PETREL_TLS_TRUST_PASSWORD);
                                      default: the JDK's trust store
              --tls-dir DIR           where --https keeps its self-signed certificate
                                      (default ~/.petrel/tls)
              --no-http               no plain HTTP: serve HTTPS or AJP only
            Certificate files given with --tls-cert are reloaded when they change, and on SIGHUP.

            AJP/1.3, for Apache httpd in front (mod_jk, mod_proxy_ajp), on the same transport:
              --ajp-port N            serve AJP on port N (8009 is the usual one)
              --ajp-host ADDR         address for AJP (default 127.0.0.1, whatever --host says)
              --ajp-secret-file F     first line: the secret the front end must send
                                      (mod_jk worker.NAME.secret, mod_proxy_ajp secret=); default:
                                      the %s environment variable
              --ajp-secret S          the secret itself (other local users can read it in ps)
              --ajp-no-secret         accept requests without a secret (logs a warning)
              --ajp-packet-size N     %d to %d, as the front end's max_packet_size or
                                      ProxyIOBufferSize (default %d)
              --ajp-allow-attribute A also allow request attribute A (repeatable); requests with
                                      any other attribute get 403
            """.formatted(TransportKind.names(), DEFAULT_TRANSPORT.cliName(), defaultLimits(),
                    ServerConfig.DEFAULT.minRequestBodyRate().bytesPerSecond(), ServerConfig.DEFAULT.minResponseRate().bytesPerSecond(),
                    ServerConfig.DEFAULT.minRequestBodyRate().grace().toSeconds(), ServerConfig.DEFAULT.headTimeoutWhenFull().toSeconds(),
                    Http2Config.DEFAULT.maxConcurrentStreams(), Http2Config.DEFAULT.initialWindowSize(),
                    Http2Config.DEFAULT.connectionWindowSize(), Http2Config.DEFAULT.maxResetsPerSecond(),
                    Http2Config.DEFAULT.maxControlFramesPerSecond(), Http2Config.DEFAULT.maxEmptyFramesPerSecond(),
                    HttpsOptions.DEFAULT_PORT,
                    AjpOptions.SECRET_VARIABLE, AjpPackets.DEFAULT_PACKET_SIZE, AjpPackets.MAX_PACKET_SIZE,
                    AjpPackets.DEFAULT_PACKET_SIZE);

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
        boolean https = false;
        int httpsPort = HttpsOptions.DEFAULT_PORT;
        boolean plainHttp = true;
        List<HttpsOptions.CertificateFiles> certificates = new ArrayList<>();
        Path passwordFile = null;
        Path tlsDir = null;
        int ajpPort = -1;
        String ajpHost = null;
        int adminPort = -1;
        String adminHost = null;
        String ajpSecret = null;
        Path ajpSecretFile = null;
        boolean ajpNoSecret = false;
        int ajpPacketSize = -1;
        List<String> ajpAttributes = new ArrayList<>();
        ServerConfig defaults = ServerConfig.DEFAULT;
        long minBodyRate = defaults.minRequestBodyRate().bytesPerSecond();
        long minResponseRate = defaults.minResponseRate().bytesPerSecond();
        Duration rateGrace = defaults.minRequestBodyRate().grace();
        Duration bodyTimeout = defaults.requestBodyTimeout();
        Duration headTimeoutWhenFull = defaults.headTimeoutWhenFull();
        ServerConfig limits = defaults; // the timeouts and limits below, as given
        List<String> tlsProtocols = null;
        List<String> tlsCiphers = null;
        Duration tlsHandshakeTimeout = null;
        String tlsEngine = null;
        Path ocspResponse = null;
        boolean proxyProtocol = false;
        boolean noHttp2 = false;
        boolean h2c = false;
        Http2Config h2Limits = Http2Config.DEFAULT;
        boolean h2LimitGiven = false;
        List<String> trustedProxies = new ArrayList<>();
        String accessLogTarget = null;
        boolean demo = false;
        boolean gzip = false;
        java.util.Map<String, String> cacheControl = new java.util.LinkedHashMap<>();
        String logLevel = null; // as java.util.logging is configured: INFO unless a logging.properties says
        TlsConfig.ClientAuth clientAuth = TlsConfig.ClientAuth.NONE;
        Path trust = null;
        AccessLog.Format accessLogFormat = null;
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
                case "--min-body-rate" -> minBodyRate = intIn(value != null ? value : next(args, ++i, name), name, 0, 1_000_000_000);
                case "--min-response-rate" -> minResponseRate = intIn(value != null ? value : next(args, ++i, name), name, 0, 1_000_000_000);
                case "--rate-grace" -> rateGrace = Duration.ofSeconds(intIn(value != null ? value : next(args, ++i, name), name, 0, 3600));
                case "--body-timeout" -> bodyTimeout = Duration.ofSeconds(intIn(value != null ? value : next(args, ++i, name), name, 0, 86_400));
                case "--no-http2" -> {
                    if (value != null) throw new UsageException("--no-http2 takes no value");
                    noHttp2 = true;
                }
                case "--h2c" -> {
                    if (value != null) throw new UsageException("--h2c takes no value");
                    h2c = true;
                }
                case "--h2-max-streams", "--h2-stream-window", "--h2-connection-window", "--h2-max-resets",
                     "--h2-max-control-frames", "--h2-max-empty-frames" -> {
                    h2Limits = http2Limit(h2Limits, name, value != null ? value : next(args, ++i, name));
                    h2LimitGiven = true;
                }
                case "--proxy-protocol" -> {
                    if (value != null) throw new UsageException("--proxy-protocol takes no value; the proxies are --trusted-proxy CIDR");
                    proxyProtocol = true;
                }
                case "--trusted-proxy" -> {
                    String cidr = value != null ? value : next(args, ++i, name);
                    try {
                        dev.petrel.server.Connector.http(0).trustedProxies(cidr);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--trusted-proxy: " + e.getMessage());
                    }
                    trustedProxies.add(cidr);
                }
                case "--head-timeout-when-full" -> headTimeoutWhenFull = Duration.ofSeconds(
                        intIn(value != null ? value : next(args, ++i, name), name, 1, 3600));
                case "--header-timeout" -> limits = limits.withHeaderTimeout(Duration.ofSeconds(intIn(value != null ? value : next(args, ++i, name), name, 1, 3600)));
                case "--idle-timeout" -> limits = limits.withIdleTimeout(Duration.ofSeconds(intIn(value != null ? value : next(args, ++i, name), name, 1, 86_400)));
                case "--body-read-timeout" -> limits = limits.withBodyReadTimeout(Duration.ofSeconds(intIn(value != null ? value : next(args, ++i, name), name, 1, 3600)));
                case "--write-timeout" -> limits = limits.withWriteTimeout(Duration.ofSeconds(intIn(value != null ? value : next(args, ++i, name), name, 1, 3600)));
                case "--max-requests-per-connection" -> limits = limits.withMaxRequestsPerConnection(
                        intIn(value != null ? value : next(args, ++i, name), name, 1, Integer.MAX_VALUE));
                case "--max-drain-bytes" -> limits = limits.withMaxDrainBytes(
                        intIn(value != null ? value : next(args, ++i, name), name, 0, Integer.MAX_VALUE));
                case "--response-buffer-size" -> limits = limits.withResponseBufferSize(
                        intIn(value != null ? value : next(args, ++i, name), name, 1024, 16 * 1024 * 1024));
                case "--max-body-size" -> limits = limits.withLimits(limits.limits().withMaxBodySize(
                        longIn(value != null ? value : next(args, ++i, name), name, 0, Long.MAX_VALUE)));
                case "--max-request-line" -> limits = limits.withLimits(limits.limits().withMaxRequestLineLength(
                        intIn(value != null ? value : next(args, ++i, name), name, 64, 1024 * 1024)));
                case "--max-header-size" -> limits = limits.withLimits(limits.limits().withMaxHeaderSectionSize(
                        intIn(value != null ? value : next(args, ++i, name), name, 256, 1024 * 1024)));
                case "--max-headers" -> limits = limits.withLimits(limits.limits().withMaxHeaderCount(
                        intIn(value != null ? value : next(args, ++i, name), name, 1, 10_000)));
                case "--tls-protocols" -> tlsProtocols = tlsProtocols(names(value != null ? value : next(args, ++i, name), name));
                case "--tls-ciphers" -> tlsCiphers = names(value != null ? value : next(args, ++i, name), name);
                case "--tls-engine" -> {
                    tlsEngine = value != null ? value : next(args, ++i, name);
                    if (!tlsEngine.equals(TlsConfig.JSSE) && !tlsEngine.equals(TlsConfig.NATIVE)) {
                        throw new UsageException("--tls-engine takes jsse or native, not '" + tlsEngine + "'");
                    }
                }
                case "--tls-ocsp-response" -> ocspResponse = Path.of(value != null ? value : next(args, ++i, name));
                case "--tls-handshake-timeout" -> tlsHandshakeTimeout = Duration.ofSeconds(intIn(value != null ? value : next(args, ++i, name), name, 1, 600));
                case "--log-level" -> {
                    logLevel = value != null ? value : next(args, ++i, name);
                    if (!LOG_LEVELS.contains(logLevel)) {
                        throw new UsageException("--log-level takes " + String.join(", ", LOG_LEVELS) + ", not '" + logLevel + "'");
                    }
                }
                case "--cache-control" -> {
                    String rule = value != null ? value : next(args, ++i, name);
                    int split = rule.indexOf('=');
                    if (split <= 0 || split == rule.length() - 1) {
                        throw new UsageException("--cache-control takes GLOB=VALUE, e.g. 'assets/**=max-age=31536000, immutable', not '" + rule + "'");
                    }
                    String glob = rule.substring(0, split);
                    try {
                        java.nio.file.FileSystems.getDefault().getPathMatcher("glob:" + glob);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--cache-control: '" + glob + "' is not a glob pattern (" + e.getMessage() + ")");
                    }
                    cacheControl.put(glob, rule.substring(split + 1));
                }
                case "--gzip" -> {
                    if (value != null) throw new UsageException("--gzip takes no value");
                    gzip = true;
                }
                case "--demo" -> {
                    if (value != null) throw new UsageException("--demo takes no value");
                    demo = true;
                }
                case "--access-log" -> accessLogTarget = value != null ? value : next(args, ++i, name);
                case "--access-log-format" -> {
                    String format = value != null ? value : next(args, ++i, name);
                    accessLogFormat = switch (format) {
                        case "common" -> AccessLog.Format.COMMON;
                        case "combined" -> AccessLog.Format.COMBINED;
                        case "json" -> AccessLog.Format.JSON;
                        default -> throw new UsageException("--access-log-format takes common, combined or json, not '" + format + "'");
                    };
                }
                case "--https" -> {
                    if (value != null) throw new UsageException("--https takes no value; the port is --https-port N");
                    https = true;
                }
                case "--https-port" -> {
                    httpsPort = intIn(value != null ? value : next(args, ++i, name), name, 0, 65535);
                    https = true;
                }
                case "--tls-cert" -> certificates.add(new HttpsOptions.CertificateFiles(
                        Path.of(value != null ? value : next(args, ++i, name)), null));
                case "--tls-key" -> {
                    Path key = Path.of(value != null ? value : next(args, ++i, name));
                    if (certificates.isEmpty() || certificates.getLast().key() != null) {
                        throw new UsageException("--tls-key " + key + " must follow its --tls-cert");
                    }
                    HttpsOptions.CertificateFiles last = certificates.removeLast();
                    if (last.pkcs12()) {
                        throw new UsageException("--tls-cert " + last.certificate() + " is PKCS#12, which holds its key: drop --tls-key " + key);
                    }
                    certificates.add(new HttpsOptions.CertificateFiles(last.certificate(), key));
                }
                case "--tls-password-file" -> passwordFile = Path.of(value != null ? value : next(args, ++i, name));
                case "--tls-dir" -> tlsDir = Path.of(value != null ? value : next(args, ++i, name));
                case "--tls-client-auth" -> {
                    String mode = value != null ? value : next(args, ++i, name);
                    clientAuth = switch (mode) {
                        case "none" -> TlsConfig.ClientAuth.NONE;
                        case "want" -> TlsConfig.ClientAuth.OPTIONAL;
                        case "need" -> TlsConfig.ClientAuth.REQUIRED;
                        default -> throw new UsageException("--tls-client-auth takes none, want or need, not '" + mode + "'");
                    };
                }
                case "--tls-trust" -> trust = Path.of(value != null ? value : next(args, ++i, name));
                case "--no-http" -> {
                    if (value != null) throw new UsageException("--no-http takes no value");
                    plainHttp = false;
                }
                case "--ajp-port" -> ajpPort = intIn(value != null ? value : next(args, ++i, name), name, 0, 65535);
                case "--ajp-host" -> ajpHost = value != null ? value : next(args, ++i, name);
                case "--admin-port" -> adminPort = intIn(value != null ? value : next(args, ++i, name), name, 0, 65535);
                case "--admin-host" -> adminHost = value != null ? value : next(args, ++i, name);
                case "--ajp-secret" -> ajpSecret = value != null ? value : next(args, ++i, name);
                case "--ajp-secret-file" -> ajpSecretFile = Path.of(value != null ? value : next(args, ++i, name));
                case "--ajp-no-secret" -> {
                    if (value != null) throw new UsageException("--ajp-no-secret takes no value");
                    ajpNoSecret = true;
                }
                case "--ajp-packet-size" -> ajpPacketSize = intIn(value != null ? value : next(args, ++i, name), name,
                        AjpPackets.DEFAULT_PACKET_SIZE, AjpPackets.MAX_PACKET_SIZE);
                case "--ajp-allow-attribute" -> {
                    String attribute = value != null ? value : next(args, ++i, name);
                    if (attribute.isBlank()) throw new UsageException("--ajp-allow-attribute needs a name");
                    ajpAttributes.add(attribute);
                }
                default -> throw new UsageException("unknown option '" + arg + "'");
            }
        }
        for (HttpsOptions.CertificateFiles files : certificates) {
            if (files.key() == null && !files.pkcs12()) {
                throw new UsageException("--tls-cert " + files.certificate() + " needs its --tls-key (or give a .p12 file)");
            }
        }
        if (!certificates.isEmpty()) https = true; // a certificate means HTTPS is wanted
        if (clientAuth != TlsConfig.ClientAuth.NONE && !https) throw new UsageException("--tls-client-auth needs --https");
        if (trust != null && clientAuth == TlsConfig.ClientAuth.NONE) {
            throw new UsageException("--tls-trust needs --tls-client-auth want or need");
        }
        if ((passwordFile != null || tlsDir != null) && !https) {
            throw new UsageException((passwordFile != null ? "--tls-password-file" : "--tls-dir") + " needs --https");
        }
        boolean ajp = ajpPort >= 0;
        if (!ajp && (ajpHost != null || ajpSecret != null || ajpSecretFile != null || ajpNoSecret || ajpPacketSize > 0
                || !ajpAttributes.isEmpty())) {
            throw new UsageException("the --ajp-* options need --ajp-port N");
        }
        if (ajpNoSecret && (ajpSecret != null || ajpSecretFile != null)) {
            throw new UsageException("--ajp-no-secret contradicts --ajp-secret / --ajp-secret-file: choose one");
        }
        if (ajpSecret != null && ajpSecretFile != null) {
            throw new UsageException("--ajp-secret and --ajp-secret-file both give the secret: choose one");
        }
        if (ajpSecret != null && ajpSecret.isBlank()) throw new UsageException("--ajp-secret must not be empty");
        if (!plainHttp && !https && !ajp) throw new UsageException("--no-http needs --https (or --https-port, --tls-cert) or --ajp-port");
        if (https && plainHttp && httpsPort == port && port != 0) {
            throw new UsageException("--https-port " + httpsPort + " is the plain HTTP port too; choose another, or add --no-http");
        }
        HttpsOptions tls = !https ? null : new HttpsOptions(httpsPort, certificates, passwordFile,
                tlsDir != null ? tlsDir : HttpsOptions.defaultSelfSignedDirectory(), clientAuth, trust, tlsProtocols, tlsCiphers,
                tlsHandshakeTimeout, tlsEngine, ocspResponse);
        AjpOptions ajpOptions = !ajp ? null : new AjpOptions(ajpPort, ajpHost != null ? ajpHost : AjpOptions.DEFAULT_HOST,
                ajpSecret, ajpSecretFile, ajpNoSecret, ajpPacketSize > 0 ? ajpPacketSize : AjpOptions.DEFAULT_PACKET_SIZE,
                ajpAttributes);
        if (ajp && ajpPort != 0 && ((plainHttp && ajpPort == port) || (https && ajpPort == httpsPort))) {
            throw new UsageException("--ajp-port " + ajpPort + " is taken by " + (ajpPort == port && plainHttp ? "--port" : "--https-port")
                    + "; choose another");
        }
        if (!https) {
            String given = tlsProtocols != null ? "--tls-protocols" : tlsCiphers != null ? "--tls-ciphers"
                    : tlsHandshakeTimeout != null ? "--tls-handshake-timeout" : tlsEngine != null ? "--tls-engine"
                    : ocspResponse != null ? "--tls-ocsp-response" : null;
            if (given != null) throw new UsageException(given + " needs --https");
        }
        ServerConfig config = limits
                .withMinRequestBodyRate(minBodyRate == 0 ? DataRate.OFF : new DataRate(minBodyRate, rateGrace))
                .withMinResponseRate(minResponseRate == 0 ? DataRate.OFF : new DataRate(minResponseRate, rateGrace))
                .withRequestBodyTimeout(bodyTimeout)
                .withHeadTimeoutWhenFull(headTimeoutWhenFull);
        if (noHttp2 && h2c) throw new UsageException("--h2c speaks HTTP/2, which --no-http2 turns off; give one of them");
        if (noHttp2 && h2LimitGiven) throw new UsageException("the --h2-* limits are for HTTP/2, which --no-http2 turns off");
        Http2Config http2 = noHttp2 ? Http2Config.DISABLED : h2Limits.withClearText(h2c);
        if (proxyProtocol && trustedProxies.isEmpty()) {
            throw new UsageException("--proxy-protocol needs --trusted-proxy CIDR: the addresses allowed to send PROXY headers");
        }
        if (adminHost != null && adminPort < 0) throw new UsageException("--admin-host needs --admin-port N");
        if (accessLogFormat != null && accessLogTarget == null) throw new UsageException("--access-log-format needs --access-log FILE|-");
        if (accessLogTarget != null && accessLogTarget.isBlank()) throw new UsageException("--access-log needs a file, or - for standard output");
        AccessLog accessLog = accessLogTarget == null ? null
                : (accessLogTarget.equals("-") ? AccessLog.standardOutput() : AccessLog.file(Path.of(accessLogTarget)))
                        .format(accessLogFormat != null ? accessLogFormat : AccessLog.Format.COMBINED);
        return new ServeOptions(host, port, root, transport, maxConnections, queueTimeout, grace, plainHttp, tls, ajpOptions, config,
                proxyProtocol, List.copyOf(trustedProxies), accessLog, demo, logLevel,
                java.util.Collections.unmodifiableMap(cacheControl), gzip, adminHost != null ? adminHost : "127.0.0.1", adminPort,
                http2);
    }

    /** A comma-separated list of names (protocols, cipher suites). */
    private static List<String> names(String text, String option) throws UsageException {
        List<String> names = new ArrayList<>();
        for (String name : text.split(",")) {
            if (!name.isBlank()) names.add(name.strip());
        }
        if (names.isEmpty()) throw new UsageException(option + " takes a comma-separated list of names");
        return List.copyOf(names);
    }

    /** {@code --tls-protocols}: the versions the server would refuse at start are refused here, naming the option. */
    private static List<String> tlsProtocols(List<String> protocols) throws UsageException {
        for (String protocol : protocols) {
            if (!TlsConfig.SUPPORTED_PROTOCOLS.contains(protocol)) {
                throw new UsageException("--tls-protocols takes one or more of " + String.join(", ", TlsConfig.SUPPORTED_PROTOCOLS)
                        + ", not '" + protocol + "' (TLS 1.1 and older are deprecated, RFC 8996)");
            }
        }
        return protocols;
    }

    private static long longIn(String text, String option, long min, long max) throws UsageException {
        try {
            long value = Long.parseLong(text);
            if (value >= min && value <= max) return value;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + " takes a whole number from " + min + " to " + max + ", not '" + text + "'");
    }

    private static String next(List<String> args, int i, String option) throws UsageException {
        if (i >= args.size()) throw new UsageException(option + " needs a value");
        return args.get(i);
    }

    /** {@code limits} with the HTTP/2 limit {@code option} set to {@code text}, within the range RFC 9113 and sense allow. */
    private static Http2Config http2Limit(Http2Config limits, String option, String text) throws UsageException {
        int windowMax = Integer.MAX_VALUE; // 2^31-1, the largest flow-control window (RFC 9113 section 6.9.1)
        return switch (option) {
            case "--h2-max-streams" -> limits.withMaxConcurrentStreams(intIn(text, option, 1, 100_000));
            case "--h2-stream-window" -> limits.withWindows(intIn(text, option, 1, windowMax), limits.connectionWindowSize());
            case "--h2-connection-window" -> limits.withWindows(limits.initialWindowSize(), intIn(text, option, 65_535, windowMax));
            case "--h2-max-resets" -> limits.withRateLimits(intIn(text, option, 1, 1_000_000),
                    limits.maxControlFramesPerSecond(), limits.maxEmptyFramesPerSecond());
            case "--h2-max-control-frames" -> limits.withRateLimits(limits.maxResetsPerSecond(),
                    intIn(text, option, 1, 1_000_000), limits.maxEmptyFramesPerSecond());
            case "--h2-max-empty-frames" -> limits.withRateLimits(limits.maxResetsPerSecond(),
                    limits.maxControlFramesPerSecond(), intIn(text, option, 1, 1_000_000));
            default -> throw new IllegalArgumentException(option);
        };
    }

    private static int intIn(String text, String option, int min, int max) throws UsageException {
        return (int) longIn(text, option, min, max);
    }
}
