package dev.petrel.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.config.Connector;
import dev.petrel.server.config.TlsConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --listen URL}: the URLs it takes, how it combines with the shorthands and the per-scheme options, and its key and variable. */
class ListenOptionsTest {
    @TempDir
    Path dir;

    private static ServeOptions parse(String... args) throws UsageException {
        return ServeOptions.parse(List.of(args));
    }

    private static ListenUrl url(String text) throws UsageException {
        return ListenUrl.parse(text, "--listen");
    }

    @Test
    void takesHttpHttpsAndAjpWithAHostAndAPort() throws Exception {
        assertThat(url("http://127.0.0.1:8080")).isEqualTo(new ListenUrl(Connector.Kind.HTTP, "127.0.0.1", 8080));
        assertThat(url("https://[::1]:8443")).isEqualTo(new ListenUrl(Connector.Kind.HTTPS, "::1", 8443));
        assertThat(url("ajp://localhost:8009/")).as("a trailing slash, as a browser shows a URL").isEqualTo(
                new ListenUrl(Connector.Kind.AJP, "localhost", 8009));
        assertThat(url("HTTP://0.0.0.0:0")).isEqualTo(new ListenUrl(Connector.Kind.HTTP, "0.0.0.0", 0));
        assertThat(url("http://[::]:80")).hasToString("http://[::]:80");
    }

    @Test
    void aBadUrlIsOneLineNamingTheOptionTheValueAndWhatIsWrong() {
        String forms = "--listen takes http://HOST:PORT, https://HOST:PORT or ajp://HOST:PORT (an IPv6 HOST in brackets), not '";
        String[][] cases = {
            {"127.0.0.1:8080", "no scheme"},
            {"ftp://127.0.0.1:21", "the scheme is not http, https or ajp"},
            {"http://127.0.0.1", "no :PORT"},
            {"http://::1:8080", "an IPv6 address goes in brackets, e.g. http://[::1]:8080"},
            {"http://[::1]", "no :PORT"},
            {"http://[::1:8080", "no ] after the IPv6 address"},
            {"http://[localhost]:80", "'localhost' in brackets is not an IPv6 address"},
            {"http://:8080", "no host (0.0.0.0 or [::] for every interface)"},
            {"http://127.0.0.1:65536", "the port is a whole number from 0 to 65535, not '65536'"},
            {"http://127.0.0.1:http", "the port is a whole number from 0 to 65535, not 'http'"},
            {"http://127.0.0.1:", "the port is a whole number from 0 to 65535"},
            {"http://127.0.0.1:80/app", "a listener is a host and a port, without a path, query or user"},
            {"http://user@127.0.0.1:80", "a listener is a host and a port, without a path, query or user"},
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> parse("--listen", c[0])).as(c[0]).isInstanceOf(UsageException.class)
                    .hasMessage(forms + c[0] + "': " + c[1]);
        }
    }

    @Test
    void theListenUrlsAreEveryListenerInTheirOrder() throws Exception {
        ServeOptions options = parse("--listen", "http://127.0.0.1:8081", "--listen=https://0.0.0.0:8443", "--listen",
                "http://[::1]:8082", "--tls-dir", dir.toString());
        assertThat(options.listeners()).extracting(ListenUrl::toString)
                .containsExactly("http://127.0.0.1:8081", "https://0.0.0.0:8443", "http://[::1]:8082");
        assertThat(options.plainHttp()).isTrue();
        assertThat(options.port()).isEqualTo(8081);
        assertThat(options.https().port()).isEqualTo(8443);
        assertThat(options.https().selfSigned()).as("without --tls-cert, as --https").isTrue();
        assertThat(options.ajp()).isNull();

        ServeOptions httpsOnly = parse("--listen", "https://127.0.0.1:0");
        assertThat(httpsOnly.plainHttp()).isFalse();
        assertThat(httpsOnly.https().selfSignedDirectory()).isEqualTo(HttpsOptions.defaultSelfSignedDirectory());
    }

    @Test
    void withoutListenTheShorthandsMakeTheListenersAsBefore() throws Exception {
        assertThat(parse().listeners()).extracting(ListenUrl::toString).containsExactly("http://127.0.0.1:8080");
        assertThat(parse("--host", "::", "--port", "9000", "--https-port", "9443", "--ajp-port", "8009", "--ajp-no-secret")
                .listeners()).extracting(ListenUrl::toString)
                .containsExactly("http://[::]:9000", "https://[::]:9443", "ajp://127.0.0.1:8009");
        assertThat(parse("--no-http", "--tls-cert", "a.p12").listeners()).extracting(ListenUrl::toString)
                .containsExactly("https://127.0.0.1:8443");
    }

    @Test
    void theShorthandsAreRefusedBesideListen() {
        for (String[] shorthand : new String[][] {{"--host", "0.0.0.0"}, {"--port", "80"}, {"--https"}, {"--https-port", "443"},
                {"--no-http"}, {"--ajp-port", "8009"}, {"--ajp-host", "127.0.0.1"}}) {
            List<String> args = new java.util.ArrayList<>(List.of("--listen", "http://127.0.0.1:8080"));
            args.addAll(List.of(shorthand));
            assertThatThrownBy(() -> ServeOptions.parse(args)).as(shorthand[0]).isInstanceOf(UsageException.class)
                    .hasMessage(shorthand[0] + " and --listen both say where to listen: with --listen, give every listener as a --listen URL");
        }
    }

    @Test
    void theSettingsOfASchemeNeedAListenerOfIt() {
        assertThatThrownBy(() -> parse("--listen", "http://127.0.0.1:80", "--tls-cert", "a.crt", "--tls-key", "a.key"))
                .hasMessage("--tls-cert needs an https:// --listen");
        assertThatThrownBy(() -> parse("--listen", "http://127.0.0.1:80", "--tls-client-auth", "need"))
                .hasMessage("--tls-client-auth needs an https:// --listen");
        assertThatThrownBy(() -> parse("--listen", "http://127.0.0.1:80", "--tls-engine", "native"))
                .hasMessage("--tls-engine needs an https:// --listen");
        assertThatThrownBy(() -> parse("--listen", "http://127.0.0.1:80", "--ajp-secret", "s"))
                .hasMessage("the --ajp-* options need an ajp:// --listen");
        assertThatThrownBy(() -> parse("--listen", "ajp://127.0.0.1:8009", "--ajp-no-secret", "--ajp-secret", "s"))
                .hasMessageContaining("contradicts");
    }

    @Test
    void twoListenersOnOneAddressAreRefusedButPortZeroPicksOneEach() throws Exception {
        assertThatThrownBy(() -> parse("--listen", "http://127.0.0.1:8080", "--listen", "https://127.0.0.1:8080"))
                .hasMessage("--listen https://127.0.0.1:8080 is the address of http://127.0.0.1:8080 too; choose another port");
        assertThat(parse("--listen", "http://127.0.0.1:0", "--listen", "http://127.0.0.1:0").listeners()).hasSize(2);
        assertThat(parse("--listen", "http://127.0.0.1:8080", "--listen", "http://127.0.0.2:8080").listeners()).hasSize(2);
    }

    @Test
    void theTlsSettingsServeEveryHttpsListenerAndTheProxySettingsEveryHttpOne() throws Exception {
        ServeOptions options = parse("--listen", "https://127.0.0.1:8443", "--listen", "https://127.0.0.1:9443", "--listen",
                "http://127.0.0.1:8080", "--listen", "ajp://127.0.0.2:8009", "--tls-cert", "a.crt", "--tls-key", "a.key",
                "--proxy-protocol", "--trusted-proxy", "10.0.0.0/8", "--ajp-secret", "s");
        TlsConfig tls = TlsConfig.pem(Path.of("a.crt"), Path.of("a.key")); // read when the server starts
        AjpConfig ajp = options.ajp().config(Map.of());
        List<Connector> connectors = options.listeners().stream()
                .map(l -> l.connector(tls, ajp, options.proxyProtocol(), options.trustedProxies())).toList();
        assertThat(connectors).extracting(Connector::kind).containsExactly(Connector.Kind.HTTPS, Connector.Kind.HTTPS,
                Connector.Kind.HTTP, Connector.Kind.AJP);
        assertThat(connectors.get(1).tls()).isSameAs(tls);
        assertThat(connectors.subList(0, 3)).allSatisfy(c -> {
            assertThat(c.proxyProtocol()).isTrue();
            assertThat(c.trustedProxies()).containsExactly("10.0.0.0/8");
        });
        assertThat(connectors.get(3).proxyProtocol()).as("AJP has its front end's word instead").isFalse();
        assertThat(connectors.get(3).host()).isEqualTo("127.0.0.2");
        assertThat(connectors.get(3).ajp().secret()).isEqualTo("s");
        assertThat(options.https().certificates()).containsExactly(new HttpsOptions.CertificateFiles(Path.of("a.crt"), Path.of("a.key")));
    }

    @Test
    void anAjpListenerWithoutASecretIsToldByItsUrl() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("PETREL_AJP_SECRET") == null);
        assertThatThrownBy(() -> parse("--listen", "ajp://127.0.0.1:8009").ajp().config(Map.of()))
                .isInstanceOf(AjpOptions.SetupException.class)
                .hasMessageStartingWith("--listen ajp://127.0.0.1:8009 needs the secret the front end sends");

        Path file = Files.writeString(dir.resolve("petrel.properties"), "listen.1=http://127.0.0.1:0\nlisten.2=ajp://127.0.0.1:0\n");
        ConfigSources.Merged merged = ConfigSources.merge(List.of("--config", file.toString()), Map.of());
        AjpOptions ajp = merged.parse().ajp();
        assertThatThrownBy(() -> ajp.config(Map.of())).isInstanceOfSatisfying(AjpOptions.SetupException.class, e ->
                assertThat(merged.places().where(e.getMessage()))
                        .startsWith("--config " + file + ": key 'listen.2' ajp://127.0.0.1:0 needs the secret"));
    }

    @Test
    void fromTheConfigFileAndTheEnvironment() throws Exception {
        Path file = Files.writeString(dir.resolve("petrel.properties"), """
                listen.2=https://[::1]:8443
                listen.1=http://0.0.0.0:8080
                listen.10=ajp://127.0.0.1:8009
                ajp-no-secret=true
                """);
        String config = "--config=" + file;
        assertThat(ConfigSources.merge(List.of(config), Map.of()).parse().listeners()).extracting(ListenUrl::toString)
                .containsExactly("http://0.0.0.0:8080", "https://[::1]:8443", "ajp://127.0.0.1:8009");
        assertThat(ConfigSources.merge(List.of(config), Map.of("PETREL_LISTEN", " http://127.0.0.1:1  http://127.0.0.1:2 ",
                "PETREL_AJP_NO_SECRET", "false")).parse().listeners()).as("the environment replaces the file's list")
                .extracting(ListenUrl::toString).containsExactly("http://127.0.0.1:1", "http://127.0.0.1:2");
        assertThatThrownBy(() -> ConfigSources.merge(List.of(config, "--listen", "http://127.0.0.1:3"), Map.of()).parse())
                .as("the command line replaces the file's listeners, not its --ajp-no-secret")
                .hasMessage("the --ajp-* options need an ajp:// --listen");
    }

    @Test
    void aBadUrlOrAShorthandFromTheFileOrTheEnvironmentIsNamedWhereItWasWritten() throws Exception {
        Path file = Files.writeString(dir.resolve("bad.properties"), "listen.1=http://127.0.0.1:1\nlisten.2=http://127.0.0.1\n");
        assertThatThrownBy(() -> ConfigSources.merge(List.of("--config", file.toString()), Map.of()).parse())
                .hasMessageStartingWith("--config " + file + ": key 'listen.2' takes http://HOST:PORT,").hasMessageEndingWith("no :PORT");
        assertThatThrownBy(() -> ConfigSources.merge(List.of(), Map.of("PETREL_LISTEN", "http://127.0.0.1:1 tcp://127.0.0.1:2")).parse())
                .hasMessageStartingWith("environment variable PETREL_LISTEN takes http://HOST:PORT,")
                .hasMessageContaining("not 'tcp://127.0.0.1:2'");

        Path port = Files.writeString(dir.resolve("port.properties"), "port=8080\n");
        assertThatThrownBy(() -> ConfigSources.merge(List.of("--config", port.toString(), "--listen", "http://127.0.0.1:1"), Map.of()).parse())
                .hasMessage("--config " + port + ": key 'port' and --listen both say where to listen:"
                        + " with --listen, give every listener as a --listen URL");
        assertThatThrownBy(() -> ConfigSources.merge(List.of("--port", "80"), Map.of("PETREL_LISTEN", "http://127.0.0.1:1")).parse())
                .hasMessage("--port and environment variable PETREL_LISTEN both say where to listen:"
                        + " with --listen, give every listener as a --listen URL");
    }
}
