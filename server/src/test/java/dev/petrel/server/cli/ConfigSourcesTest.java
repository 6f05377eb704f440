package dev.petrel.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigSourcesTest {
    @TempDir
    Path dir;

    private Path config(String text) throws Exception {
        Path file = dir.resolve("petrel.properties");
        Files.writeString(file, text);
        return file;
    }

    private static ServeOptions parse(List<String> cli, Map<String, String> env) throws UsageException {
        return ConfigSources.merge(cli, env).parse();
    }

    @Test
    void commandLineOverEnvironmentOverFileOverDefaults() throws Exception {
        Path file = config("port=1000\nhost=0.0.0.0\nlog-level=debug\n");
        String c = "--config=" + file;
        assertThat(parse(List.of(c), Map.of()).port()).isEqualTo(1000);
        assertThat(parse(List.of(c), Map.of("PETREL_PORT", "2000")).port()).isEqualTo(2000);
        ServeOptions all = parse(List.of("--config", file.toString(), "--port", "3000"), Map.of("PETREL_PORT", "2000"));
        assertThat(all.port()).isEqualTo(3000);
        assertThat(all.host()).isEqualTo("0.0.0.0");
        assertThat(all.logLevel()).isEqualTo("debug");
        assertThat(parse(List.of(), Map.of()).port()).isEqualTo(8080);
    }

    @Test
    void repeatedOptionsFlagsAndCertificatePairs() throws Exception {
        Path file = config("""
                trusted-proxy.2=192.168.0.0/16
                trusted-proxy.1=10.0.0.0/8
                proxy-protocol=true
                demo=false
                cache-control.1=assets/**=max-age=60, immutable
                tls-cert.1=a.crt
                tls-key.1=a.key
                tls-cert.2=b.p12
                """);
        ServeOptions options = parse(List.of("--config", file.toString()), Map.of());
        assertThat(options.trustedProxies()).containsExactly("10.0.0.0/8", "192.168.0.0/16");
        assertThat(options.proxyProtocol()).isTrue();
        assertThat(options.demo()).isFalse();
        assertThat(options.cacheControl()).containsEntry("assets/**", "max-age=60, immutable");
        assertThat(options.https().certificates()).containsExactly(new HttpsOptions.CertificateFiles(Path.of("a.crt"), Path.of("a.key")),
                new HttpsOptions.CertificateFiles(Path.of("b.p12"), null));
        // a stronger place replaces the whole list
        assertThat(parse(List.of("--config", file.toString(), "--trusted-proxy", "127.0.0.1"), Map.of()).trustedProxies())
                .containsExactly("127.0.0.1");
        assertThat(parse(List.of("--config", file.toString()), Map.of("PETREL_TRUSTED_PROXY", "172.16.0.0/12 127.0.0.1"))
                .trustedProxies()).containsExactly("172.16.0.0/12", "127.0.0.1");
    }

    @Test
    void mistakesAreOneLineNamingTheKey() throws Exception {
        assertThatThrownBy(() -> parse(List.of("--config", config("prot=80\n").toString()), Map.of()))
                .hasMessageEndingWith("key 'prot' is not an option of petrel serve (see petrel serve --help)");
        assertThatThrownBy(() -> parse(List.of("--config", config("demo=yes\n").toString()), Map.of()))
                .hasMessageEndingWith("key 'demo' takes true or false, not 'yes'");
        assertThatThrownBy(() -> parse(List.of("--config", config("port.1=80\n").toString()), Map.of()))
                .hasMessageContaining("'port.1': only");
        assertThatThrownBy(() -> parse(List.of("--config", dir.resolve("absent.properties").toString()), Map.of()))
                .hasMessageStartingWith("--config " + dir.resolve("absent.properties") + ": cannot be read");
        assertThatThrownBy(() -> parse(List.of(), Map.of("PETREL_DEMO", "1")))
                .hasMessage("environment variable PETREL_DEMO takes true or false, not '1'");
        assertThat(parse(List.of(), Map.of("PETREL_JAVA_OPTS", "-Xmx1g", "PETREL_TLS_PASSWORD", "x")).port())
                .as("variables that are not options are left alone").isEqualTo(8080);
    }

    @Test
    void aBadValueNamesTheKeyOrTheVariableItCameFrom() throws Exception {
        Path file = config("port=eighty\n");
        String key = "--config " + file + ": key ";
        assertThatThrownBy(() -> parse(List.of("--config", file.toString()), Map.of()))
                .hasMessage(key + "'port' takes a whole number from 0 to 65535, not 'eighty'");
        assertThatThrownBy(() -> parse(List.of(), Map.of("PETREL_PORT", "abc")))
                .hasMessage("environment variable PETREL_PORT takes a whole number from 0 to 65535, not 'abc'");
        assertThatThrownBy(() -> parse(List.of("--port", "abc"), Map.of()))
                .hasMessage("--port takes a whole number from 0 to 65535, not 'abc'");
        assertThat(parse(List.of("--config", file.toString(), "--port", "80"), Map.of("PETREL_PORT", "abc")).port())
                .as("a value replaced by a stronger place is never read").isEqualTo(80);

        Path proxies = config("trusted-proxy.1=10.0.0.0/8\ntrusted-proxy.2=10.0.0.0/99\n");
        assertThatThrownBy(() -> parse(List.of("--config", proxies.toString()), Map.of()))
                .hasMessageStartingWith("--config " + proxies + ": key 'trusted-proxy.2': ");
        assertThatThrownBy(() -> parse(List.of("--https"), Map.of("PETREL_TLS_PROTOCOLS", "TLSv1.1")))
                .hasMessageStartingWith("environment variable PETREL_TLS_PROTOCOLS takes one or more of TLSv1.3, TLSv1.2, not 'TLSv1.1'");
        assertThatThrownBy(() -> parse(List.of(), Map.of("PETREL_ADMIN_HOST", "0.0.0.0")))
                .hasMessage("environment variable PETREL_ADMIN_HOST needs --admin-port N");
        assertThatThrownBy(() -> parse(List.of(), Map.of("PETREL_TLS_ENGINE", "native")))
                .hasMessage("environment variable PETREL_TLS_ENGINE needs --https");
    }

    @Test
    void everyOptionOfTheHelpHasAKeyAndAVariable() throws Exception {
        Set<String> inHelp = new HashSet<>();
        Matcher option = Pattern.compile("(?m)^ {2}--([a-z0-9-]+)").matcher(ServeOptions.HELP);
        while (option.find()) inHelp.add(option.group(1));
        inHelp.remove("config");
        assertThat(inHelp).contains("port", "listen", "tls-key", "gzip");
        for (String name : inHelp) {
            Option<?> declared = ServeOptionTable.named(name);
            String value = declared.isFlag() ? "true" : "x";
            String key = declared.repeatable() ? name + ".1" : name;
            String variable = "PETREL_" + name.toUpperCase(java.util.Locale.ROOT).replace('-', '_');
            if (declared.follows() != null) { // read with its leader's value of the same index
                String leader = declared.follows();
                assertThat(ConfigFile.read(config(leader + ".1=a.crt\n" + key + "=" + value + "\n"))).extracting(g -> g.option().name())
                        .as("key %s", key).containsExactly(leader, name);
                continue;
            }
            assertThat(ConfigFile.read(config(key + "=" + value + "\n"))).extracting(Given::where)
                    .as("key %s", key).containsExactly("--config " + dir.resolve("petrel.properties") + ": key '" + key + "'");
            assertThat(EnvironmentVariables.read(Map.of(variable, value))).extracting(Given::where)
                    .as("variable %s", variable).containsExactly("environment variable " + variable);
        }
        assertThatThrownBy(() -> ConfigFile.read(config("config=other.properties\n"))).hasMessageEndingWith("a config file cannot name another");
        assertThat(EnvironmentVariables.read(Map.of("PETREL_CONFIG", "other.properties"))).isEmpty();
    }
}
