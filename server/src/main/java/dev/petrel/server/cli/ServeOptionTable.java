package dev.petrel.server.cli;

import static dev.petrel.server.cli.Option.flag;
import static dev.petrel.server.cli.Option.option;
import static dev.petrel.server.cli.OptionValue.longSize;
import static dev.petrel.server.cli.OptionValue.names;
import static dev.petrel.server.cli.OptionValue.oneOf;
import static dev.petrel.server.cli.OptionValue.path;
import static dev.petrel.server.cli.OptionValue.seconds;
import static dev.petrel.server.cli.OptionValue.size;
import static dev.petrel.server.cli.OptionValue.text;
import static dev.petrel.server.cli.OptionValue.wholeNumber;

import dev.petrel.ajp.AjpPackets;
import dev.petrel.server.VirtualHosts;
import dev.petrel.server.config.AccessLog;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TransportKind;
import dev.petrel.server.config.TrustedProxies;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Every option of {@code petrel serve}, each declared once: its name, type, default, help and how
 * its value lands in {@link ServeSettings}. The command line ({@link CommandLine}), the config file
 * ({@link ConfigFile}), the environment ({@link EnvironmentVariables}), the help and the synopsis in
 * {@code docs/command-line.md} ({@link ServeHelp}) are all read from this table; what options say
 * together (a TLS setting without HTTPS, two listeners on one port) is checked in
 * {@link ServeSettings#build()}.
 *
 * <p>Hand-written rather than picocli's: the server jar is the product and its core modules depend
 * on the JDK alone, and a table of fifty options and a few value types is smaller than the
 * annotations and the library would be.
 */
final class ServeOptionTable {
    private ServeOptionTable() {}

    private static final ServerConfig LIMITS = ServerConfig.DEFAULT;
    private static final Http2Config H2 = Http2Config.DEFAULT;
    /** The levels of {@code --log-level}, quietest first. */
    private static final List<String> LOG_LEVELS = List.of("error", "warn", "info", "debug", "trace");
    /** The largest HTTP/2 flow-control window, 2^31-1 (RFC 9113 section 6.9.1). */
    private static final int WINDOW_MAX = Integer.MAX_VALUE;

    /** The groups of the help, in its order. */
    static final List<OptionGroup> GROUPS = List.of(
            new OptionGroup("Options:",
                    option("host", text("ADDR"), (s, v) -> s.host = v)
                            .help("address to listen on; 0.0.0.0 for all").byDefault(ServeSettings.DEFAULT_HOST),
                    option("port", wholeNumber("N", 0, 65535), (s, v) -> s.port = v)
                            .help("port; 0 picks a free one").byDefault(ServeSettings.DEFAULT_PORT),
                    option("listen", OptionValue.of("URL", ListenUrl::parse), ServeSettings::listen).repeated()
                            .help("listen on URL: http://HOST:PORT, https://HOST:PORT or ajp://HOST:PORT, an IPv6 HOST in"
                                    + " brackets (repeatable). Given, the --listen URLs are every listener: --host, --port,"
                                    + " --https, --https-port, --no-http, --ajp-port and --ajp-host are refused; the --tls-*"
                                    + " options apply to every https listener (without --tls-cert, the self-signed"
                                    + " certificate of --https), the --ajp-* ones to every ajp listener, --proxy-protocol"
                                    + " and --trusted-proxy to every http and https one"),
                    option("root", path("DIR"), (s, v) -> s.root = v)
                            .help("folder of static files, its index.html at /; without it, the bundled demo site"),
                    option("cache-control", OptionValue.withSpaces("GLOB=VALUE", ServeOptionTable::cacheRule),
                            (s, v) -> s.cacheControl.put(v.getKey(), v.getValue())).repeated()
                            .help("Cache-Control for the static files whose path matches GLOB, e.g."
                                    + " 'assets/**=max-age=31536000, immutable' (repeatable; the first match wins)"),
                    option("vhost", OptionValue.of("NAME=DIR", ServeOptionTable::virtualHost),
                            (s, v) -> s.vhosts.put(v.getKey(), v.getValue())).repeated()
                            .help("serve the static files of DIR to requests for host NAME (its Host or :authority, e.g."
                                    + " shop.example.com, or *.example.com for its subdomains); every other host gets the"
                                    + " site of --root (repeatable)"),
                    flag("gzip", OptionValue.flag(), s -> s.gzip = true)
                            .help("gzip text, JSON, JavaScript, XML and SVG responses of 1 KiB or more for clients that"
                                    + " accept it (precompressed .br/.gz files beside the originals are served as they are)"),
                    flag("demo", OptionValue.flag(), s -> s.demo = true)
                            .help("with --root, also the demo routes: GET / HelloWorld, GET /date, POST /echo (always on"
                                    + " for the bundled site)"),
                    option("transport", OptionValue.of("NAME", ServeOptionTable::transport), (s, v) -> s.transport = v)
                            .help("how connections are served: " + TransportKind.names()).byDefault(ServeSettings.DEFAULT_TRANSPORT.cliName()),
                    option("max-connections", wholeNumber("N", 1, 1_000_000), (s, v) -> s.maxConnections = v)
                            .help("connections served at once").byDefault(defaultConnectionLimits()),
                    option("queue-timeout", seconds(0, 3600), (s, v) -> s.queueTimeout = v)
                            .help("how long new connections may wait for a slot when the server is full before they get"
                                    + " 503; 0: at once").byDefault(ServeSettings.DEFAULT_QUEUE_TIMEOUT.toSeconds()),
                    option("shutdown-grace", seconds(0, 3600), (s, v) -> s.shutdownGrace = v)
                            .help("time in-flight requests get on SIGTERM").byDefault(ServeSettings.DEFAULT_SHUTDOWN_GRACE.toSeconds())),
            new OptionGroup("Timeouts and limits:",
                    option("header-timeout", seconds(1, 3600), (s, v) -> s.config = s.config.withHeaderTimeout(v))
                            .help("time for a request's whole head; slower gets 408").byDefault(LIMITS.headerTimeout().toSeconds()),
                    option("idle-timeout", seconds(1, 86_400), (s, v) -> s.config = s.config.withIdleTimeout(v))
                            .help("how long a keep-alive connection may wait for its next request")
                            .byDefault(LIMITS.idleTimeout().toSeconds()),
                    option("body-read-timeout", seconds(1, 3600), (s, v) -> s.config = s.config.withBodyReadTimeout(v))
                            .help("longest wait for the next bytes of a request body").byDefault(LIMITS.bodyReadTimeout().toSeconds()),
                    option("write-timeout", seconds(1, 3600), (s, v) -> s.config = s.config.withWriteTimeout(v))
                            .help("longest a response write may wait for the client").byDefault(LIMITS.writeTimeout().toSeconds()),
                    option("max-requests-per-connection", wholeNumber("N", 1, Integer.MAX_VALUE),
                            (s, v) -> s.config = s.config.withMaxRequestsPerConnection(v))
                            .help("then the connection closes").byDefault(LIMITS.maxRequestsPerConnection()),
                    option("max-drain-bytes", wholeNumber("N", 0, Integer.MAX_VALUE), (s, v) -> s.config = s.config.withMaxDrainBytes(v))
                            .help("unread request body discarded to keep a connection").byDefault(LIMITS.maxDrainBytes()),
                    option("response-buffer-size", size(1024, 16 * 1024 * 1024), (s, v) -> s.config = s.config.withResponseBufferSize(v))
                            .help("body bytes buffered before the head is sent").byDefault(LIMITS.responseBufferSize()),
                    option("max-body-size", longSize(0, Long.MAX_VALUE),
                            (s, v) -> s.config = s.config.withLimits(s.config.limits().withMaxBodySize(v)))
                            .help("largest request body; larger gets 413").byDefault(LIMITS.limits().maxBodySize()),
                    option("max-request-line", size(64, 1024 * 1024),
                            (s, v) -> s.config = s.config.withLimits(s.config.limits().withMaxRequestLineLength(v)))
                            .help("longest request line; longer gets 414").byDefault(LIMITS.limits().maxRequestLineLength()),
                    option("max-header-size", size(256, 1024 * 1024),
                            (s, v) -> s.config = s.config.withLimits(s.config.limits().withMaxHeaderSectionSize(v)))
                            .help("largest header section; larger gets 431").byDefault(LIMITS.limits().maxHeaderSectionSize()),
                    option("max-headers", wholeNumber("N", 1, 10_000),
                            (s, v) -> s.config = s.config.withLimits(s.config.limits().withMaxHeaderCount(v)))
                            .help("most header lines; more gets 431").byDefault(LIMITS.limits().maxHeaderCount())),
            new OptionGroup("Slow clients (each cut connection frees its slot):",
                    option("min-body-rate", wholeNumber("N", 0, 1_000_000_000), (s, v) -> s.minBodyRate = v)
                            .help("bytes/s a request body must keep up with once it has kept the server waiting"
                                    + " --rate-grace seconds; slower gets 408; 0: no minimum")
                            .byDefault(LIMITS.minRequestBodyRate().bytesPerSecond()),
                    option("min-response-rate", wholeNumber("N", 0, 1_000_000_000), (s, v) -> s.minResponseRate = v)
                            .help("bytes/s a client must take a response at, per 16 KiB written, after --rate-grace;"
                                    + " slower is cut; 0: none").byDefault(LIMITS.minResponseRate().bytesPerSecond()),
                    option("rate-grace", seconds(0, 3600), (s, v) -> s.rateGrace = v)
                            .help("waiting allowed before either rate counts").byDefault(LIMITS.minRequestBodyRate().grace().toSeconds()),
                    option("body-timeout", seconds(0, 86_400), (s, v) -> s.bodyTimeout = v)
                            .help("the most a whole request body may keep the server waiting; 0: no limit beyond the rate")
                            .byDefault(LIMITS.requestBodyTimeout().toSeconds()),
                    option("head-timeout-when-full", seconds(1, 3600), (s, v) -> s.headTimeoutWhenFull = v)
                            .help("while every connection slot is taken, connections that have waited this long for a"
                                    + " request head are closed to make room").byDefault(LIMITS.headTimeoutWhenFull().toSeconds())),
            new OptionGroup("Configuration (command line over environment over file over defaults):",
                    option("config", path("FILE"), (s, v) -> { }).onCommandLineOnly() // read by ConfigSources, before the others
                            .help("a properties file: each option as a key without the dashes (port=8080,"
                                    + " access-log=/var/log/petrel/access.log, proxy-protocol=true; repeated ones as"
                                    + " listen.1=..., listen.2=...); each also as PETREL_PORT, PETREL_ACCESS_LOG, ... in the"
                                    + " environment (repeated ones separated by spaces: PETREL_LISTEN='http://[::]:80"
                                    + " https://[::]:443')")),
            new OptionGroup("Logging (System.Logger; one line per record: date time LEVEL logger: message):",
                    option("log-level", oneOf("LEVEL", String.join(", ", LOG_LEVELS), byName(LOG_LEVELS)),
                            (s, v) -> s.logLevel = v)
                            .help("error, warn, info, debug or trace").byDefault("info")),
            new OptionGroup("Health and metrics (off by default; on an admin listener of their own):",
                    option("admin-port", wholeNumber("N", 0, 65535), (s, v) -> s.adminPort = v)
                            .help("serve GET /health (200 while serving, 503 while draining), GET /metrics"
                                    + " (Prometheus text format) and GET /resources (pooled buffers and TLS engines"
                                    + " held, with -Dpetrel.resourceAccounting=true) on port N"),
                    option("admin-host", text("ADDR"), (s, v) -> s.adminHost = v)
                            .help("address for the admin listener, whatever --host says").byDefault(ServeSettings.DEFAULT_ADMIN_HOST)),
            new OptionGroup("Access log (off by default; written off the request path, reopened on SIGHUP and SIGUSR1):",
                    option("access-log", text("FILE|-"), (s, v) -> s.accessLog = v)
                            .help("one line per request, appended to FILE or on standard output"),
                    option("access-log-format", oneOf("common|combined|json", ordered("common", AccessLog.Format.COMMON,
                                    "combined", AccessLog.Format.COMBINED, "json", AccessLog.Format.JSON)), (s, v) -> s.accessLogFormat = v)
                            .help("NCSA common, combined (with Referer and User-Agent), or one JSON object per line")
                            .byDefault("combined")),
            new OptionGroup("HTTP/2 (RFC 9113; h2 is offered by ALPN on HTTPS, before http/1.1):",
                    flag("no-http2", OptionValue.flag(), s -> s.noHttp2 = true)
                            .help("HTTPS offers http/1.1 only"),
                    flag("h2c", OptionValue.flag(), s -> s.h2c = true)
                            .help("also take HTTP/2 with prior knowledge on the plain port (curl --http2-prior-knowledge, h2load)"),
                    option("h2-max-streams", wholeNumber("N", 1, 100_000), (s, v) -> s.http2 = s.http2.withMaxConcurrentStreams(v))
                            .help("requests in progress at once per connection; more are refused with REFUSED_STREAM")
                            .byDefault(H2.maxConcurrentStreams()),
                    option("h2-stream-window", size(1, WINDOW_MAX),
                            (s, v) -> s.http2 = s.http2.withWindows(v, s.http2.connectionWindowSize()))
                            .help("request body a stream may send ahead of the handler").byDefault(H2.initialWindowSize()),
                    option("h2-connection-window", size(65_535, WINDOW_MAX),
                            (s, v) -> s.http2 = s.http2.withWindows(s.http2.initialWindowSize(), v))
                            .help("the same for all streams of a connection").byDefault(H2.connectionWindowSize()),
                    option("h2-max-resets", wholeNumber("N", 1, 1_000_000),
                            (s, v) -> s.http2 = s.http2.withRateLimits(v, s.http2.maxControlFramesPerSecond(), s.http2.maxEmptyFramesPerSecond()))
                            .help("streams reset per second either way (rapid reset, MadeYouReset) before the connection is"
                                    + " ended with GOAWAY ENHANCE_YOUR_CALM").byDefault(H2.maxResetsPerSecond()),
                    option("h2-max-control-frames", wholeNumber("N", 1, 1_000_000),
                            (s, v) -> s.http2 = s.http2.withRateLimits(s.http2.maxResetsPerSecond(), v, s.http2.maxEmptyFramesPerSecond()))
                            .help("SETTINGS, PING and PRIORITY frames per second, the same way").byDefault(H2.maxControlFramesPerSecond()),
                    option("h2-max-empty-frames", wholeNumber("N", 1, 1_000_000),
                            (s, v) -> s.http2 = s.http2.withRateLimits(s.http2.maxResetsPerSecond(), s.http2.maxControlFramesPerSecond(), v))
                            .help("frames per second that carry nothing, the same way").byDefault(H2.maxEmptyFramesPerSecond())),
            new OptionGroup("Behind a proxy (HAProxy, nginx, a load balancer):",
                    option("trusted-proxy", OptionValue.of("CIDR", ServeOptionTable::trustedProxy), (s, v) -> s.trustedProxies.add(v))
                            .repeated()
                            .help("a proxy in front, e.g. 10.0.0.0/8 or 127.0.0.1 (repeatable): its Forwarded and"
                                    + " X-Forwarded-For/-Proto/-Host/-Port headers say who the client was; anyone else's are ignored"),
                    flag("proxy-protocol", OptionValue.flag("the proxies are --trusted-proxy CIDR"), s -> s.proxyProtocol = true)
                            .help("HTTP and HTTPS connections must begin with a PROXY protocol header (v1 or v2, as HAProxy's"
                                    + " send-proxy sends it) from a --trusted-proxy; others are closed")),
            new OptionGroup("HTTPS (TLS 1.3 and 1.2, on the same transport):",
                    flag("https", OptionValue.flag("the port is --https-port N"), s -> s.https = true)
                            .help("serve HTTPS too, on port " + HttpsOptions.DEFAULT_PORT + " unless --https-port says; without"
                                    + " --tls-cert, with a self-signed certificate for localhost, made on first use and reused"
                                    + " (its path and fingerprint are logged at start)"),
                    option("https-port", wholeNumber("N", 0, 65535), (s, v) -> {
                        s.httpsPort = v;
                        s.https = true;
                    }).help("serve HTTPS on port N (implies --https)"),
                    option("tls-cert", path("FILE"), ServeSettings::certificate).repeated()
                            .help("certificate chain in PEM, or a PKCS#12 file (.p12/.pfx) holding the key too; repeat with"
                                    + " --tls-key for several certificates, chosen by the name the client asks for (SNI)"),
                    option("tls-key", path("FILE"), ServeSettings::key).follows("tls-cert")
                            .help("the private key (PEM) of the --tls-cert before it"),
                    option("tls-password-file", path("F"), (s, v) -> s.passwordFile = v)
                            .help("first line: the PKCS#12 password; without it, the " + HttpsSetup.PASSWORD_VARIABLE
                                    + " environment variable, else empty"),
                    option("tls-protocols", OptionValue.of("LIST", ServeOptionTable::tlsProtocols), (s, v) -> s.tlsProtocols = v)
                            .help("TLS versions: TLSv1.3, TLSv1.2 or TLSv1.3,TLSv1.2; older ones are refused, deprecated by"
                                    + " RFC 8996").byDefault(String.join(",", TlsConfig.SUPPORTED_PROTOCOLS)),
                    option("tls-ciphers", names("LIST"), (s, v) -> s.tlsCiphers = v)
                            .help("cipher suites in the server's order of preference, by their IANA names")
                            .byDefault("forward-secret AEAD suites"),
                    option("tls-handshake-timeout", seconds(1, 600), (s, v) -> s.tlsHandshakeTimeout = v)
                            .help("a client slower to finish its handshake is cut").byDefault(TlsConfig.DEFAULT_HANDSHAKE_TIMEOUT.toSeconds()),
                    option("tls-engine", oneOf(TlsConfig.JSSE + "|" + TlsConfig.NATIVE,
                                    byName(List.of(TlsConfig.JSSE, TlsConfig.NATIVE))), (s, v) -> s.tlsEngine = v)
                            .help("the TLS implementation: jsse, the JDK's, or native, BoringSSL (petrel-tls-native), a full"
                                    + " handshake in a fraction of the CPU time; if it cannot load, the server does not start")
                            .byDefault(TlsConfig.JSSE),
                    option("tls-ocsp-response", path("F"), (s, v) -> s.ocspResponse = v)
                            .help("staple this DER OCSP response (openssl ocsp -respout) for the first certificate; re-read"
                                    + " when it changes (native engine only)"),
                    option("tls-client-auth", oneOf("none|want|need", ordered("none", TlsConfig.ClientAuth.NONE,
                                    "want", TlsConfig.ClientAuth.OPTIONAL, "need", TlsConfig.ClientAuth.REQUIRED)),
                            (s, v) -> s.clientAuth = v)
                            .help("ask clients for a certificate (mutual TLS): want lets clients without one in, need"
                                    + " refuses them").byDefault("none"),
                    option("tls-trust", path("FILE"), (s, v) -> s.trust = v)
                            .help("what client certificates must chain to: PEM certificates, or a PKCS#12 store (password in "
                                    + HttpsOptions.TRUST_PASSWORD_VARIABLE + "); without it, the JDK's trust store"),
                    option("tls-dir", path("DIR"), (s, v) -> s.tlsDir = v)
                            .help("where --https keeps its self-signed certificate").byDefault("~/.petrel/tls"),
                    flag("no-http", OptionValue.flag(), s -> s.noHttp = true)
                            .help("no plain HTTP: serve HTTPS or AJP only"))
                    .withFootnote("Certificate files given with --tls-cert are reloaded when they change, and on SIGHUP."),
            new OptionGroup("AJP/1.3, for Apache httpd in front (mod_jk, mod_proxy_ajp), on the same transport:",
                    option("ajp-port", wholeNumber("N", 0, 65535), (s, v) -> s.ajpPort = v)
                            .help("serve AJP on port N (8009 is the usual one)"),
                    option("ajp-host", text("ADDR"), (s, v) -> s.ajpHost = v)
                            .help("address for AJP, whatever --host says").byDefault(AjpOptions.DEFAULT_HOST),
                    option("ajp-secret-file", path("F"), (s, v) -> s.ajpSecretFile = v)
                            .help("first line: the secret the front end must send (mod_jk worker.NAME.secret,"
                                    + " mod_proxy_ajp secret=); without it, the " + AjpOptions.SECRET_VARIABLE
                                    + " environment variable"),
                    option("ajp-secret", text("S"), (s, v) -> s.ajpSecret = v)
                            .help("the secret itself (other local users can read it in ps)"),
                    flag("ajp-no-secret", OptionValue.flag(), s -> s.ajpNoSecret = true)
                            .help("accept requests without a secret (logs a warning)"),
                    option("ajp-packet-size", wholeNumber("N", AjpPackets.DEFAULT_PACKET_SIZE, AjpPackets.MAX_PACKET_SIZE),
                            (s, v) -> s.ajpPacketSize = v)
                            .help(AjpPackets.DEFAULT_PACKET_SIZE + " to " + AjpPackets.MAX_PACKET_SIZE + ", as the front end's"
                                    + " max_packet_size or ProxyIOBufferSize").byDefault(AjpPackets.DEFAULT_PACKET_SIZE),
                    option("ajp-allow-attribute", OptionValue.of("A", ServeOptionTable::attribute), (s, v) -> s.ajpAttributes.add(v))
                            .repeated()
                            .help("also allow request attribute A (repeatable); requests with any other attribute get 403")));

    /** Every option, in the help's order. */
    static final List<Option<?>> ALL = GROUPS.stream().flatMap(group -> group.options().stream()).toList();

    private static final Map<String, Option<?>> BY_NAME = ALL.stream()
            .collect(Collectors.toUnmodifiableMap(Option::name, option -> option));

    /** The option named {@code name} (without the dashes), or null. */
    static Option<?> named(String name) {
        return BY_NAME.get(name);
    }

    private static String defaultConnectionLimits() {
        return Arrays.stream(TransportKind.values())
                .map(kind -> kind.defaultMaxConnections() + " " + kind.cliName())
                .collect(Collectors.joining(", "));
    }

    private static Map<String, String> byName(List<String> names) {
        Map<String, String> byName = new LinkedHashMap<>();
        for (String name : names) byName.put(name, name);
        return byName;
    }

    private static <T> Map<String, T> ordered(String a, T first, String b, T second, String c, T third) {
        Map<String, T> choices = new LinkedHashMap<>();
        choices.put(a, first);
        choices.put(b, second);
        choices.put(c, third);
        return choices;
    }

    private static TransportKind transport(String name, String subject) throws UsageException {
        try {
            return TransportKind.fromCliName(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException(subject + ": " + e.getMessage());
        }
    }

    private static String trustedProxy(String cidr, String subject) throws UsageException {
        try {
            TrustedProxies.of(List.of(cidr));
            return cidr;
        } catch (IllegalArgumentException e) {
            throw new UsageException(subject + ": " + e.getMessage());
        }
    }

    /** {@code GLOB=VALUE}, the glob checked now so that a mistake is told at start, naming the option. */
    private static Map.Entry<String, Path> virtualHost(String value, String subject) throws UsageException {
        Map.Entry<String, String> split = splitAtEquals(value, subject, "NAME=DIR", "shop.example.com=/srv/shop");
        try {
            VirtualHosts.builder().host(split.getKey(), (request, response) -> { }); // the rules a name must follow, in one place
        } catch (IllegalArgumentException e) {
            throw new UsageException(subject + ": " + e.getMessage());
        }
        return Map.entry(split.getKey(), Path.of(split.getValue()));
    }

    private static Map.Entry<String, String> cacheRule(String rule, String subject) throws UsageException {
        Map.Entry<String, String> split = splitAtEquals(rule, subject, "GLOB=VALUE", "'assets/**=max-age=31536000, immutable'");
        try {
            FileSystems.getDefault().getPathMatcher("glob:" + split.getKey());
        } catch (IllegalArgumentException e) {
            throw new UsageException(subject + ": '" + split.getKey() + "' is not a glob pattern (" + e.getMessage() + ")");
        }
        return split;
    }

    /** {@code value} cut at its first {@code =}, neither side empty; else a usage error showing {@code form} and {@code example}. */
    private static Map.Entry<String, String> splitAtEquals(String value, String subject, String form, String example) throws UsageException {
        int split = value.indexOf('=');
        if (split <= 0 || split == value.length() - 1) {
            throw new UsageException(subject + " takes " + form + ", e.g. " + example + ", not '" + value + "'");
        }
        return Map.entry(value.substring(0, split), value.substring(split + 1));
    }

    /** The versions the server would refuse at start are refused here, naming the option. */
    private static List<String> tlsProtocols(String text, String subject) throws UsageException {
        List<String> protocols = names("LIST").reader().read(text, subject);
        for (String protocol : protocols) {
            if (!TlsConfig.SUPPORTED_PROTOCOLS.contains(protocol)) {
                throw new UsageException(subject + " takes one or more of " + String.join(", ", TlsConfig.SUPPORTED_PROTOCOLS)
                        + ", not '" + protocol + "' (TLS 1.1 and older are deprecated, RFC 8996)");
            }
        }
        return protocols;
    }

    private static String attribute(String name, String subject) throws UsageException {
        if (name.isBlank()) throw new UsageException(subject + " needs a name");
        return name;
    }
}
