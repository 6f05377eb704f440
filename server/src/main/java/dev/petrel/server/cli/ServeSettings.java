package dev.petrel.server.cli;

import dev.petrel.server.config.AccessLog;
import dev.petrel.server.config.Connector;
import dev.petrel.server.config.DataRate;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TransportKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code petrel serve}'s settings while its options are read: each option of
 * {@link ServeOptionTable} puts its value here, and {@link #build()} checks what they say together
 * (a TLS setting without HTTPS, a shorthand beside {@code --listen}, two listeners on one address)
 * and makes the {@link ServeOptions}. A field holds its default until an option sets it.
 */
final class ServeSettings {
    static final String DEFAULT_HOST = "127.0.0.1";
    static final int DEFAULT_PORT = 8080;
    static final String DEFAULT_ADMIN_HOST = "127.0.0.1";
    static final TransportKind DEFAULT_TRANSPORT = TransportKind.NIO;
    static final Duration DEFAULT_QUEUE_TIMEOUT = Duration.ofSeconds(10);
    static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);

    /** The options that say where to listen without {@code --listen}: with it, they are refused. */
    private static final List<String> SHORTHANDS = List.of("host", "port", "https", "https-port", "no-http", "ajp-port", "ajp-host");
    /** The HTTPS settings other than the certificates, refused without HTTPS, as the help lists them. */
    private static final List<String> TLS_ONLY = List.of("tls-protocols", "tls-ciphers", "tls-handshake-timeout", "tls-engine",
            "tls-ocsp-response");

    private final Places places;

    String host = DEFAULT_HOST;
    int port = DEFAULT_PORT;
    private final List<ListenUrl> listen = new ArrayList<>();
    private final List<Given> listenGiven = new ArrayList<>();
    Path root;
    TransportKind transport = DEFAULT_TRANSPORT;
    int maxConnections = -1;
    Duration queueTimeout = DEFAULT_QUEUE_TIMEOUT;
    Duration shutdownGrace = DEFAULT_SHUTDOWN_GRACE;
    ServerConfig config = ServerConfig.DEFAULT; // the timeouts and limits as given; the slow-client ones below join them
    long minBodyRate = ServerConfig.DEFAULT.minRequestBodyRate().bytesPerSecond();
    long minResponseRate = ServerConfig.DEFAULT.minResponseRate().bytesPerSecond();
    Duration rateGrace = ServerConfig.DEFAULT.minRequestBodyRate().grace();
    Duration bodyTimeout = ServerConfig.DEFAULT.requestBodyTimeout();
    Duration headTimeoutWhenFull = ServerConfig.DEFAULT.headTimeoutWhenFull();
    String logLevel; // null: as java.util.logging is configured, INFO unless a logging.properties says
    int adminPort = -1;
    String adminHost;
    String accessLog;
    AccessLog.Format accessLogFormat;
    boolean noHttp2;
    boolean h2c;
    Http2Config http2 = Http2Config.DEFAULT; // the limits as given
    final List<String> trustedProxies = new ArrayList<>();
    boolean proxyProtocol;
    final Map<String, String> cacheControl = new LinkedHashMap<>();
    final Map<String, Path> vhosts = new LinkedHashMap<>();
    boolean gzip;
    boolean demo;
    boolean https;
    int httpsPort = HttpsOptions.DEFAULT_PORT;
    private final List<CertificateGiven> certificates = new ArrayList<>();
    Path passwordFile;
    List<String> tlsProtocols;
    List<String> tlsCiphers;
    Duration tlsHandshakeTimeout;
    String tlsEngine;
    Path ocspResponse;
    TlsConfig.ClientAuth clientAuth = TlsConfig.ClientAuth.NONE;
    Path trust;
    Path tlsDir;
    boolean noHttp;
    int ajpPort = -1;
    String ajpHost;
    Path ajpSecretFile;
    String ajpSecret;
    boolean ajpNoSecret;
    int ajpPacketSize = AjpOptions.DEFAULT_PACKET_SIZE;
    final List<String> ajpAttributes = new ArrayList<>();

    /** A {@code --tls-cert} with where it was given, for the messages about its key. */
    private record CertificateGiven(HttpsOptions.CertificateFiles files, Given given) {}

    /** Settings for the values in effect at {@code places}. */
    ServeSettings(Places places) {
        this.places = places;
    }

    /** {@code --listen URL}. */
    void listen(ListenUrl url, Given given) {
        listen.add(url);
        listenGiven.add(given);
    }

    /** {@code --tls-cert FILE}: its key, if it needs one, comes next. */
    void certificate(Path file, Given given) {
        certificates.add(new CertificateGiven(new HttpsOptions.CertificateFiles(file, null), given));
    }

    /** {@code --tls-key FILE}, the key of the {@code --tls-cert} before it. */
    void key(Path key, Given given) throws UsageException {
        if (certificates.isEmpty() || certificates.getLast().files().key() != null) {
            throw new UsageException(given.where() + " " + key + " must follow its --tls-cert");
        }
        CertificateGiven last = certificates.removeLast();
        if (last.files().pkcs12()) {
            throw new UsageException(last.given().where() + " " + last.files().certificate() + " is PKCS#12, which holds its key: drop "
                    + given.where() + " " + key);
        }
        certificates.add(new CertificateGiven(new HttpsOptions.CertificateFiles(last.files().certificate(), key), last.given()));
    }

    /** The options, once every value has landed; what they cannot say together is a {@link UsageException}. */
    ServeOptions build() throws UsageException {
        for (CertificateGiven certificate : certificates) {
            HttpsOptions.CertificateFiles files = certificate.files();
            if (files.key() == null && !files.pkcs12()) {
                throw new UsageException(certificate.given().where() + " " + files.certificate() + " needs its --tls-key (or give a .p12 file)");
            }
        }
        List<ListenUrl> listeners = listen.isEmpty() ? fromShorthands() : fromListen();
        boolean servesHttps = listeners.stream().anyMatch(l -> l.kind() == Connector.Kind.HTTPS);
        boolean servesAjp = listeners.stream().anyMatch(l -> l.kind() == Connector.Kind.AJP);
        String httpsNeeded = listen.isEmpty() ? "--https" : "an https:// --listen";
        if (clientAuth != TlsConfig.ClientAuth.NONE && !servesHttps) throw new UsageException(places.of("tls-client-auth") + " needs " + httpsNeeded);
        if (trust != null && clientAuth == TlsConfig.ClientAuth.NONE) {
            throw new UsageException(places.of("tls-trust") + " needs --tls-client-auth want or need");
        }
        for (String name : List.of("tls-password-file", "tls-dir", "tls-cert")) {
            if (places.given(name) && !servesHttps) throw new UsageException(places.of(name) + " needs " + httpsNeeded);
        }
        if (!servesAjp && places.anyGiven(name -> name.startsWith("ajp-"))) {
            throw new UsageException("the --ajp-* options need " + (listen.isEmpty() ? "--ajp-port N" : "an ajp:// --listen"));
        }
        if (ajpNoSecret && (ajpSecret != null || ajpSecretFile != null)) {
            throw new UsageException(places.of("ajp-no-secret") + " contradicts --ajp-secret / --ajp-secret-file: choose one");
        }
        if (ajpSecret != null && ajpSecretFile != null) {
            throw new UsageException(places.of("ajp-secret") + " and --ajp-secret-file both give the secret: choose one");
        }
        if (ajpSecret != null && ajpSecret.isBlank()) throw new UsageException(places.of("ajp-secret") + " must not be empty");
        for (String name : TLS_ONLY) {
            if (places.given(name) && !servesHttps) throw new UsageException(places.of(name) + " needs " + httpsNeeded);
        }
        if (noHttp2 && h2c) throw new UsageException(places.of("h2c") + " speaks HTTP/2, which --no-http2 turns off; give one of them");
        if (noHttp2 && places.anyGiven(name -> name.startsWith("h2-"))) {
            throw new UsageException("the --h2-* limits are for HTTP/2, which --no-http2 turns off");
        }
        if (proxyProtocol && trustedProxies.isEmpty()) {
            throw new UsageException(places.of("proxy-protocol") + " needs --trusted-proxy CIDR: the addresses allowed to send PROXY headers");
        }
        if (adminHost != null && adminPort < 0) throw new UsageException(places.of("admin-host") + " needs --admin-port N");
        if (accessLogFormat != null && accessLog == null) {
            throw new UsageException(places.of("access-log-format") + " needs --access-log FILE|-");
        }
        if (accessLog != null && accessLog.isBlank()) throw new UsageException(places.of("access-log") + " needs a file, or - for standard output");
        return new ServeOptions(List.copyOf(listeners), root, transport, maxConnections, queueTimeout, shutdownGrace,
                servesHttps ? httpsOptions(listeners) : null, servesAjp ? ajpOptions(listeners) : null, limits(), proxyProtocol,
                List.copyOf(trustedProxies), accessLog(), demo, logLevel, Collections.unmodifiableMap(cacheControl),
                Collections.unmodifiableMap(new LinkedHashMap<>(vhosts)), gzip,
                adminHost != null ? adminHost : DEFAULT_ADMIN_HOST, adminPort, noHttp2 ? Http2Config.DISABLED : http2.withClearText(h2c));
    }

    /**
     * Without {@code --listen}: plain HTTP on {@code --host} and {@code --port} unless
     * {@code --no-http}, HTTPS on {@code --https-port} when asked for (a certificate asks for it),
     * AJP on {@code --ajp-host} and {@code --ajp-port}.
     */
    private List<ListenUrl> fromShorthands() throws UsageException {
        if (!certificates.isEmpty()) https = true;
        boolean ajp = ajpPort >= 0;
        if (noHttp && !https && !ajp) throw new UsageException(places.of("no-http") + " needs --https (or --https-port, --tls-cert) or --ajp-port");
        if (https && !noHttp && httpsPort == port && port != 0) {
            throw new UsageException(places.of("https-port") + " " + httpsPort + " is the plain HTTP port too; choose another, or add --no-http");
        }
        if (ajp && ajpPort != 0 && ((!noHttp && ajpPort == port) || (https && ajpPort == httpsPort))) {
            throw new UsageException(places.of("ajp-port") + " " + ajpPort + " is taken by " + (ajpPort == port && !noHttp ? "--port" : "--https-port")
                    + "; choose another");
        }
        List<ListenUrl> listeners = new ArrayList<>();
        if (!noHttp) listeners.add(new ListenUrl(Connector.Kind.HTTP, host, port));
        if (https) listeners.add(new ListenUrl(Connector.Kind.HTTPS, host, httpsPort));
        if (ajp) listeners.add(new ListenUrl(Connector.Kind.AJP, ajpHost != null ? ajpHost : AjpOptions.DEFAULT_HOST, ajpPort));
        return listeners;
    }

    /** With {@code --listen}: its URLs alone, each on an address of its own. */
    private List<ListenUrl> fromListen() throws UsageException {
        for (String shorthand : SHORTHANDS) {
            if (places.given(shorthand)) {
                throw new UsageException(places.of(shorthand) + " and " + places.of("listen") + " both say where to listen:"
                        + " with --listen, give every listener as a --listen URL");
            }
        }
        for (int i = 0; i < listen.size(); i++) {
            for (int j = 0; j < i; j++) {
                ListenUrl url = listen.get(i);
                ListenUrl earlier = listen.get(j);
                if (url.port() != 0 && url.port() == earlier.port() && url.host().equalsIgnoreCase(earlier.host())) {
                    Given given = listenGiven.get(i);
                    throw new UsageException(given.where() + " " + given.value() + " is the address of " + listenGiven.get(j).value()
                            + " too; choose another port");
                }
            }
        }
        return listen;
    }

    /** The TLS settings every HTTPS listener shares; the port of the first, for the hint logged with a self-signed certificate. */
    private HttpsOptions httpsOptions(List<ListenUrl> listeners) {
        int first = listeners.stream().filter(l -> l.kind() == Connector.Kind.HTTPS).findFirst().orElseThrow().port();
        return new HttpsOptions(first, certificates.stream().map(CertificateGiven::files).toList(), passwordFile,
                tlsDir != null ? tlsDir : HttpsOptions.defaultSelfSignedDirectory(), clientAuth, trust, tlsProtocols, tlsCiphers,
                tlsHandshakeTimeout, tlsEngine, ocspResponse);
    }

    /** The AJP settings every AJP listener shares, with the first listener's address and the option that asked for it. */
    private AjpOptions ajpOptions(List<ListenUrl> listeners) {
        int index = 0;
        while (listeners.get(index).kind() != Connector.Kind.AJP) index++;
        ListenUrl first = listeners.get(index);
        String askedBy = listen.isEmpty() ? "--ajp-port" : "--listen " + listenGiven.get(index).value();
        return new AjpOptions(first.port(), first.host(), ajpSecret, ajpSecretFile, ajpNoSecret, ajpPacketSize, ajpAttributes, askedBy);
    }

    private ServerConfig limits() {
        return config
                .withMinRequestBodyRate(minBodyRate == 0 ? DataRate.OFF : new DataRate(minBodyRate, rateGrace))
                .withMinResponseRate(minResponseRate == 0 ? DataRate.OFF : new DataRate(minResponseRate, rateGrace))
                .withRequestBodyTimeout(bodyTimeout)
                .withHeadTimeoutWhenFull(headTimeoutWhenFull);
    }

    private AccessLog accessLog() {
        if (accessLog == null) return null;
        AccessLog log = accessLog.equals("-") ? AccessLog.standardOutput() : AccessLog.file(Path.of(accessLog));
        return log.format(accessLogFormat != null ? accessLogFormat : AccessLog.Format.COMBINED);
    }
}
