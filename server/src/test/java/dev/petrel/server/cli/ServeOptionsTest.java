package dev.petrel.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parsing {@code petrel serve}'s HTTPS options, and the combinations refused with one line. */
class ServeOptionsTest {
    private static ServeOptions parse(String... args) throws UsageException {
        return ServeOptions.parse(List.of(args));
    }

    @Test
    void http2LimitsDefaultToHttp2ConfigsAndAreCheckedAgainstTheirRanges() throws Exception {
        assertThat(parse().http2()).isEqualTo(dev.petrel.server.config.Http2Config.DEFAULT);
        ServeOptions changed = parse("--h2c", "--h2-max-streams", "250", "--h2-stream-window=1048576",
                "--h2-connection-window", "8388608", "--h2-max-resets", "50", "--h2-max-control-frames", "300",
                "--h2-max-empty-frames=20");
        assertThat(changed.http2()).isEqualTo(new dev.petrel.server.config.Http2Config(true, true, 250, 1_048_576, 8_388_608,
                16_384, 4_096, 50, 300, 20));

        assertThatThrownBy(() -> parse("--h2-max-streams", "0")).isInstanceOf(UsageException.class)
                .hasMessage("--h2-max-streams takes a whole number from 1 to 100000, not '0'");
        assertThatThrownBy(() -> parse("--h2-connection-window", "1000")).isInstanceOf(UsageException.class)
                .hasMessage("--h2-connection-window takes a whole number from 65535 to 2147483647, not '1000'");
        assertThatThrownBy(() -> parse("--h2-stream-window", "2147483648")).isInstanceOf(UsageException.class)
                .hasMessage("--h2-stream-window takes a whole number from 1 to 2147483647, not '2147483648'");
        assertThatThrownBy(() -> parse("--no-http2", "--h2-max-resets", "10")).isInstanceOf(UsageException.class)
                .hasMessage("the --h2-* limits are for HTTP/2, which --no-http2 turns off");
    }

    @Test
    void slowClientLimitsDefaultToTheServerConfigsAndCanBeChangedOrTurnedOff() throws Exception {
        ServeOptions defaults = parse();
        assertThat(defaults.config()).isEqualTo(dev.petrel.server.config.ServerConfig.DEFAULT);

        ServeOptions changed = parse("--min-body-rate", "1000", "--min-response-rate=0", "--rate-grace", "2",
                "--body-timeout", "300", "--head-timeout-when-full", "5");
        assertThat(changed.config().minRequestBodyRate()).isEqualTo(new dev.petrel.server.config.DataRate(1000, java.time.Duration.ofSeconds(2)));
        assertThat(changed.config().minResponseRate().enabled()).isFalse();
        assertThat(changed.config().requestBodyTimeout()).isEqualTo(java.time.Duration.ofSeconds(300));
        assertThat(changed.config().headTimeoutWhenFull()).isEqualTo(java.time.Duration.ofSeconds(5));

        assertThatThrownBy(() -> parse("--min-body-rate", "-1")).isInstanceOf(UsageException.class)
                .hasMessage("--min-body-rate takes a whole number from 0 to 1000000000, not '-1'");
        assertThatThrownBy(() -> parse("--head-timeout-when-full", "0")).isInstanceOf(UsageException.class)
                .hasMessage("--head-timeout-when-full takes a whole number from 1 to 3600, not '0'");
    }

    @Test
    void proxyOptionsNeedTheTrustedProxies() throws Exception {
        assertThat(parse().proxyProtocol()).isFalse();
        assertThat(parse().trustedProxies()).isEmpty();
        ServeOptions behind = parse("--proxy-protocol", "--trusted-proxy", "10.0.0.0/8", "--trusted-proxy=127.0.0.1");
        assertThat(behind.proxyProtocol()).isTrue();
        assertThat(behind.trustedProxies()).containsExactly("10.0.0.0/8", "127.0.0.1");
        assertThatThrownBy(() -> parse("--proxy-protocol")).isInstanceOf(UsageException.class)
                .hasMessage("--proxy-protocol needs --trusted-proxy CIDR: the addresses allowed to send PROXY headers");
        assertThatThrownBy(() -> parse("--trusted-proxy", "lb.example.com")).isInstanceOf(UsageException.class)
                .hasMessage("--trusted-proxy: not an IP address or CIDR block: 'lb.example.com'");
    }

    @Test
    void theAdminListenerIsOffUnlessAPortIsGivenAndOnLoopbackUnlessAHostIs() throws Exception {
        assertThat(parse().adminPort()).isEqualTo(-1);
        ServeOptions admin = parse("--admin-port", "9090");
        assertThat(admin.adminPort()).isEqualTo(9090);
        assertThat(admin.adminHost()).isEqualTo("127.0.0.1");
        assertThat(parse("--host", "0.0.0.0", "--admin-port=9090").adminHost()).isEqualTo("127.0.0.1");
        assertThat(parse("--admin-port", "9090", "--admin-host", "::1").adminHost()).isEqualTo("::1");
        assertThatThrownBy(() -> parse("--admin-host", "0.0.0.0")).isInstanceOf(UsageException.class)
                .hasMessage("--admin-host needs --admin-port N");
        assertThatThrownBy(() -> parse("--admin-port", "70000")).isInstanceOf(UsageException.class).hasMessageContaining("--admin-port");
    }

    @Test
    void noHttpsUnlessAsked() throws Exception {
        ServeOptions options = parse("--port", "9000");
        assertThat(options.https()).isNull();
        assertThat(options.plainHttp()).isTrue();
    }

    @Test
    void httpsAloneIsSelfSignedOnPort8443BesidePlainHttp() throws Exception {
        ServeOptions options = parse("--https");
        assertThat(options.plainHttp()).isTrue();
        assertThat(options.https().port()).isEqualTo(8443);
        assertThat(options.https().selfSigned()).isTrue();
        assertThat(options.https().selfSignedDirectory()).isEqualTo(Path.of(System.getProperty("user.home"), ".petrel", "tls"));
    }

    @Test
    void httpsPortImpliesHttpsAndTlsDirMovesTheSelfSignedCertificate() throws Exception {
        ServeOptions options = parse("--https-port=9443", "--tls-dir", "/tmp/x");
        assertThat(options.https().port()).isEqualTo(9443);
        assertThat(options.https().selfSignedDirectory()).isEqualTo(Path.of("/tmp/x"));
    }

    @Test
    void certificatesPairWithTheKeyAfterThemAndImplyHttps() throws Exception {
        ServeOptions options = parse("--tls-cert", "a.crt", "--tls-key", "a.key", "--tls-cert", "b.p12",
                "--tls-cert=c.pem", "--tls-key=c.key", "--tls-password-file", "pw", "--no-http");
        assertThat(options.plainHttp()).isFalse();
        assertThat(options.https().selfSigned()).isFalse();
        assertThat(options.https().certificates()).containsExactly(
                new HttpsOptions.CertificateFiles(Path.of("a.crt"), Path.of("a.key")),
                new HttpsOptions.CertificateFiles(Path.of("b.p12"), null),
                new HttpsOptions.CertificateFiles(Path.of("c.pem"), Path.of("c.key")));
        assertThat(options.https().certificates().get(1).pkcs12()).isTrue();
        assertThat(options.https().passwordFile()).isEqualTo(Path.of("pw"));
    }

    @Test
    void refusesCombinationsThatCannotBeServed() {
        assertThatThrownBy(() -> parse("--tls-key", "a.key")).isInstanceOf(UsageException.class)
                .hasMessage("--tls-key a.key must follow its --tls-cert");
        assertThatThrownBy(() -> parse("--tls-cert", "a.crt")).isInstanceOf(UsageException.class)
                .hasMessage("--tls-cert a.crt needs its --tls-key (or give a .p12 file)");
        assertThatThrownBy(() -> parse("--tls-cert", "a.crt", "--tls-key", "a.key", "--tls-key", "b.key"))
                .isInstanceOf(UsageException.class).hasMessage("--tls-key b.key must follow its --tls-cert");
        assertThatThrownBy(() -> parse("--tls-cert", "a.pfx", "--tls-key", "a.key")).isInstanceOf(UsageException.class)
                .hasMessageContaining("is PKCS#12, which holds its key");
        assertThatThrownBy(() -> parse("--no-http")).isInstanceOf(UsageException.class)
                .hasMessage("--no-http needs --https (or --https-port, --tls-cert) or --ajp-port");
        assertThatThrownBy(() -> parse("--tls-dir", "/tmp/x")).isInstanceOf(UsageException.class)
                .hasMessage("--tls-dir needs --https");
        assertThatThrownBy(() -> parse("--port", "9000", "--https-port", "9000")).isInstanceOf(UsageException.class)
                .hasMessageContaining("is the plain HTTP port too");
        assertThatThrownBy(() -> parse("--https=yes")).isInstanceOf(UsageException.class)
                .hasMessageContaining("--https takes no value");
        assertThatThrownBy(() -> parse("--https-port", "70000")).isInstanceOf(UsageException.class)
                .hasMessageContaining("--https-port takes a whole number from 0 to 65535");
    }

    @Test
    void accessLogOptions() throws UsageException {
        assertThat(parse().accessLog()).isNull();
        assertThat(parse("--access-log", "/var/log/petrel/access.log").accessLog())
                .isEqualTo(dev.petrel.server.config.AccessLog.file(Path.of("/var/log/petrel/access.log")));
        assertThat(parse("--access-log=-", "--access-log-format", "json").accessLog())
                .isEqualTo(dev.petrel.server.config.AccessLog.standardOutput().format(dev.petrel.server.config.AccessLog.Format.JSON));
        assertThatThrownBy(() -> parse("--access-log", "a.log", "--access-log-format", "xml"))
                .isInstanceOf(UsageException.class).hasMessage("--access-log-format takes common, combined or json, not 'xml'");
        assertThatThrownBy(() -> parse("--access-log-format", "json"))
                .isInstanceOf(UsageException.class).hasMessage("--access-log-format needs --access-log FILE|-");
    }

    @Test
    void clientCertificateOptions() throws UsageException {
        assertThat(parse("--https").https().clientAuth()).isEqualTo(dev.petrel.server.config.TlsConfig.ClientAuth.NONE);
        HttpsOptions need = parse("--https", "--tls-client-auth", "need", "--tls-trust", "clients-ca.pem").https();
        assertThat(need.clientAuth()).isEqualTo(dev.petrel.server.config.TlsConfig.ClientAuth.REQUIRED);
        assertThat(need.trust()).isEqualTo(Path.of("clients-ca.pem"));
        assertThat(parse("--https", "--tls-client-auth=want").https().clientAuth()).isEqualTo(dev.petrel.server.config.TlsConfig.ClientAuth.OPTIONAL);
        assertThatThrownBy(() -> parse("--tls-client-auth", "need")).hasMessage("--tls-client-auth needs --https");
        assertThatThrownBy(() -> parse("--https", "--tls-trust", "ca.pem")).hasMessage("--tls-trust needs --tls-client-auth want or need");
        assertThatThrownBy(() -> parse("--https", "--tls-client-auth", "maybe"))
                .hasMessage("--tls-client-auth takes none, want or need, not 'maybe'");
    }

    @Test
    void logLevelOption() throws UsageException {
        assertThat(parse().logLevel()).isNull();
        assertThat(parse("--log-level", "debug").logLevel()).isEqualTo("debug");
        assertThatThrownBy(() -> parse("--log-level", "loud"))
                .hasMessage("--log-level takes error, warn, info, debug, trace, not 'loud'");
    }

    @Test
    void cacheControlOptions() throws UsageException {
        assertThat(parse().cacheControl()).isEmpty();
        assertThat(parse("--cache-control", "assets/**=max-age=31536000, immutable", "--cache-control=*.html=no-cache")
                .cacheControl()).containsExactly(java.util.Map.entry("assets/**", "max-age=31536000, immutable"),
                        java.util.Map.entry("*.html", "no-cache"));
        assertThatThrownBy(() -> parse("--cache-control", "no-equals")).hasMessageStartingWith("--cache-control takes GLOB=VALUE");
        assertThatThrownBy(() -> parse("--cache-control", "[a=x")).hasMessageStartingWith("--cache-control: '[a' is not a glob pattern");
    }

    @Test
    void vhostOptions() throws UsageException {
        assertThat(parse().vhosts()).isEmpty();
        assertThat(parse("--vhost", "shop.example.com=/srv/shop", "--vhost=*.example.com=/srv/any").vhosts())
                .containsExactly(java.util.Map.entry("shop.example.com", java.nio.file.Path.of("/srv/shop")),
                        java.util.Map.entry("*.example.com", java.nio.file.Path.of("/srv/any")));
        assertThatThrownBy(() -> parse("--vhost", "shop.example.com")).hasMessageStartingWith("--vhost takes NAME=DIR");
        assertThatThrownBy(() -> parse("--vhost", "shop.example.com:8080=/srv")).hasMessageStartingWith("--vhost: a host is a name")
                .hasMessageContaining("without a port");
    }

    @Test
    void everyTimeoutAndLimitHasAnOption() throws UsageException {
        ServeOptions options = parse("--header-timeout", "5", "--idle-timeout=60", "--body-read-timeout", "7", "--write-timeout", "8",
                "--max-requests-per-connection", "500", "--max-drain-bytes", "1024", "--response-buffer-size", "32768",
                "--max-body-size", "1073741824", "--max-request-line", "4096", "--max-header-size", "32768", "--max-headers", "50");
        dev.petrel.server.config.ServerConfig config = options.config();
        assertThat(config.headerTimeout()).isEqualTo(java.time.Duration.ofSeconds(5));
        assertThat(config.idleTimeout()).isEqualTo(java.time.Duration.ofSeconds(60));
        assertThat(config.bodyReadTimeout()).isEqualTo(java.time.Duration.ofSeconds(7));
        assertThat(config.writeTimeout()).isEqualTo(java.time.Duration.ofSeconds(8));
        assertThat(config.maxRequestsPerConnection()).isEqualTo(500);
        assertThat(config.maxDrainBytes()).isEqualTo(1024);
        assertThat(config.responseBufferSize()).isEqualTo(32768);
        assertThat(config.limits().maxBodySize()).isEqualTo(1L << 30);
        assertThat(config.limits().maxRequestLineLength()).isEqualTo(4096);
        assertThat(config.limits().maxHeaderSectionSize()).isEqualTo(32768);
        assertThat(config.limits().maxHeaderCount()).isEqualTo(50);
        assertThat(parse().config()).isEqualTo(dev.petrel.server.config.ServerConfig.DEFAULT);
        assertThatThrownBy(() -> parse("--idle-timeout", "0")).hasMessage("--idle-timeout takes a whole number from 1 to 86400, not '0'");
        assertThatThrownBy(() -> parse("--max-body-size", "lots")).hasMessageStartingWith("--max-body-size takes a whole number");
    }

    @Test
    void tlsSettings() throws UsageException {
        HttpsOptions tls = parse("--https", "--tls-protocols", "TLSv1.3", "--tls-ciphers", "TLS_AES_256_GCM_SHA384, TLS_AES_128_GCM_SHA256",
                "--tls-handshake-timeout", "3", "--tls-engine", "native").https();
        assertThat(tls.protocols()).containsExactly("TLSv1.3");
        assertThat(tls.engine()).isEqualTo("native");
        assertThat(parse("--https").https().engine()).as("the default, decided by TlsConfig").isNull();
        assertThat(tls.cipherSuites()).containsExactly("TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256");
        assertThat(tls.handshakeTimeout()).isEqualTo(java.time.Duration.ofSeconds(3));
        assertThatThrownBy(() -> parse("--tls-protocols", "TLSv1.3")).hasMessage("--tls-protocols needs --https");
        assertThatThrownBy(() -> parse("--tls-engine", "native")).hasMessage("--tls-engine needs --https");
        assertThat(parse("--https", "--tls-ocsp-response", "ocsp.der").https().ocspResponse()).isEqualTo(java.nio.file.Path.of("ocsp.der"));
        assertThatThrownBy(() -> parse("--https", "--tls-engine", "openssl"))
                .hasMessage("--tls-engine takes jsse or native, not 'openssl'");
    }

    @Test
    void tlsProtocolsAreTls13And12Only() throws UsageException {
        assertThat(parse("--https", "--tls-protocols", "TLSv1.2,TLSv1.3").https().protocols()).containsExactly("TLSv1.2", "TLSv1.3");
        for (String protocol : List.of("SSLv3", "TLSv1", "TLSv1.1", "TLSv1.4", "tlsv1.3")) {
            assertThatThrownBy(() -> parse("--https", "--tls-protocols", "TLSv1.3," + protocol))
                    .hasMessage("--tls-protocols takes one or more of TLSv1.3, TLSv1.2, not '" + protocol
                            + "' (TLS 1.1 and older are deprecated, RFC 8996)");
        }
    }

    @Test
    void gzipFlag() throws UsageException {
        assertThat(parse().gzip()).isFalse();
        assertThat(parse("--gzip").gzip()).isTrue();
        assertThatThrownBy(() -> parse("--gzip=yes")).hasMessage("--gzip takes no value");
    }
}
