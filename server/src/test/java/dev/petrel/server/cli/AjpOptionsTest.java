package dev.petrel.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.server.config.AjpConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Parsing {@code petrel serve}'s AJP options, where the secret comes from, and the refusals. */
class AjpOptionsTest {
    @TempDir
    Path dir;

    private static ServeOptions parse(String... args) throws UsageException {
        return ServeOptions.parse(List.of(args));
    }

    @Test
    void noAjpUnlessAsked() throws Exception {
        assertThat(parse().ajp()).isNull();
    }

    @Test
    void theSecretFromAFileIsItsFirstLineAndTheListenerStaysOnLoopback() throws Exception {
        Path file = dir.resolve("ajp.secret");
        Files.writeString(file, "  from-the-file \nsecond line\n");
        ServeOptions options = parse("--host", "0.0.0.0", "--ajp-port", "8009", "--ajp-secret-file", file.toString());
        AjpConfig config = options.ajp().config(Map.of());
        assertThat(options.ajp().port()).isEqualTo(8009);
        assertThat(config.secret()).isEqualTo("from-the-file");
        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.packetSize()).isEqualTo(8192);
    }

    @Test
    void theSecretFromTheOptionOrTheEnvironment() throws Exception {
        assertThat(parse("--ajp-port", "8009", "--ajp-secret", "inline").ajp().config(Map.of()).secret()).isEqualTo("inline");
        assertThat(parse("--ajp-port", "8009").ajp().config(Map.of("PETREL_AJP_SECRET", "env")).secret()).isEqualTo("env");
    }

    @Test
    void hostPacketSizeAndAttributes() throws Exception {
        AjpConfig config = parse("--ajp-port=8009", "--ajp-host", "10.0.0.5", "--ajp-packet-size", "65536", "--ajp-secret", "s",
                "--ajp-allow-attribute", "SSL_CLIENT_S_DN", "--ajp-allow-attribute=SSL_CLIENT_I_DN").ajp().config(Map.of());
        assertThat(config.host()).isEqualTo("10.0.0.5");
        assertThat(config.packetSize()).isEqualTo(65536);
        assertThat(config.allowedAttributes()).contains("SSL_CLIENT_S_DN", "SSL_CLIENT_I_DN", "AJP_REMOTE_PORT");
    }

    @Test
    void withoutASecretOnlyWhenTurnedOff() throws Exception {
        assertThatThrownBy(() -> parse("--ajp-port", "8009").ajp().config(Map.of()))
                .isInstanceOf(AjpOptions.SetupException.class)
                .hasMessageContaining("--ajp-secret-file FILE").hasMessageContaining("--ajp-no-secret");
        assertThat(parse("--ajp-port", "8009", "--ajp-no-secret").ajp().config(Map.of()).requiresSecret()).isFalse();
    }

    @Test
    void aMissingOrEmptySecretFileIsNamed() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty"), "\n");
        assertThatThrownBy(() -> parse("--ajp-port", "8009", "--ajp-secret-file", empty.toString()).ajp().config(Map.of()))
                .hasMessage("--ajp-secret-file " + empty + ": the first line is empty");
        Path missing = dir.resolve("missing");
        assertThatThrownBy(() -> parse("--ajp-port", "8009", "--ajp-secret-file", missing.toString()).ajp().config(Map.of()))
                .hasMessageStartingWith("--ajp-secret-file " + missing + ": cannot read it");
    }

    @Test
    void refusesCombinationsThatCannotBeServed() {
        assertThatThrownBy(() -> parse("--ajp-secret", "s")).isInstanceOf(UsageException.class)
                .hasMessage("the --ajp-* options need --ajp-port N");
        assertThatThrownBy(() -> parse("--ajp-port", "8009", "--ajp-no-secret", "--ajp-secret", "s"))
                .hasMessageContaining("contradicts");
        assertThatThrownBy(() -> parse("--ajp-port", "8009", "--ajp-secret", "s", "--ajp-secret-file", "f"))
                .hasMessageContaining("choose one");
        assertThatThrownBy(() -> parse("--ajp-port", "8080", "--ajp-secret", "s")).hasMessageContaining("is taken by --port");
        assertThatThrownBy(() -> parse("--ajp-port", "8009", "--ajp-packet-size", "4096", "--ajp-secret", "s"))
                .hasMessageContaining("--ajp-packet-size takes a whole number from 8192 to 65536");
    }

    @Test
    void ajpAloneWithoutPlainHttp() throws Exception {
        ServeOptions options = parse("--no-http", "--ajp-port", "8009", "--ajp-secret", "s");
        assertThat(options.plainHttp()).isFalse();
        assertThat(options.ajp()).isNotNull();
    }
}
