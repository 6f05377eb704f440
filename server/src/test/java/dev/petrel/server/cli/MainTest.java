package dev.petrel.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.config.TransportKind;
import dev.petrel.server.tls.Fixtures;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The command line's answers to bad input: one line, a non-zero exit, no stack trace. Bounded in
 * time: a server that starts when it should not waits for a signal, and the timeout's interrupt
 * stops it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void rejectsAnUnknownCommand() {
        assertThat(run("fly")).isEqualTo(2);
        assertThat(err()).isEqualTo("petrel: unknown command 'fly' (see 'petrel help')" + System.lineSeparator());
    }

    @Test
    void rejectsAnUnknownOption() {
        assertThat(run("serve", "--colour", "blue")).isEqualTo(2);
        assertThat(err()).startsWith("petrel: unknown option '--colour'").doesNotContain("Exception");
    }

    @Test
    void rejectsAnUnknownTransportNamingTheValidOnes() {
        assertThat(run("serve", "--transport", "carrier-pigeon")).isEqualTo(2);
        assertThat(err()).contains("unknown transport 'carrier-pigeon'").contains("blocking").contains("virtual");
    }

    @Test
    void rejectsAPortOutOfRangeAndAMissingValue() {
        assertThat(run("serve", "--port", "70000")).isEqualTo(2);
        assertThat(err()).contains("--port takes a whole number from 0 to 65535, not '70000'");
        err.reset();
        assertThat(run("serve", "--port")).isEqualTo(2);
        assertThat(err()).contains("--port needs a value");
    }

    @Test
    void rejectsARootThatIsNotAFolder() {
        assertThat(run("serve", "--port", "0", "--root", "/no/such/folder")).isEqualTo(2);
        assertThat(err()).contains("--root /no/such/folder is not a folder");
    }

    @Test
    void rejectsAVhostWhoseFolderIsMissing() {
        assertThat(run("serve", "--port", "0", "--vhost", "shop.example.com=/no/such/folder")).isEqualTo(2);
        assertThat(err()).contains("--vhost shop.example.com=/no/such/folder: not a folder");
    }

    @Test
    void aRootFromTheConfigFileIsNamedByItsKey(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("petrel.properties"), "root=/no/such/folder\n");
        assertThat(run("serve", "--port", "0", "--config", file.toString())).isEqualTo(2);
        assertThat(err()).isEqualTo("petrel: --config " + file + ": key 'root' /no/such/folder is not a folder\n");
    }

    @Test
    void reportsAPortInUseInOneLine() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            assertThat(run("serve", "--host", "127.0.0.1", "--port", String.valueOf(port))).isEqualTo(1);
            assertThat(err()).startsWith("petrel: cannot listen on 127.0.0.1:" + port + ": ")
                    .doesNotContain("Exception").doesNotContain("\tat ");
            assertThat(err().lines().count()).isEqualTo(1);
        }
    }

    /**
     * An address that is none: an IPv6 literal that cannot be one, which the JDK refuses without
     * asking a resolver (999.1.1.1 or an unknown name would send a DNS query off this machine).
     */
    private static final String NO_ADDRESS = "::1::2";

    @ParameterizedTest
    @EnumSource(TransportKind.class)
    void anAddressThatIsNoneIsOneLineNamingIt(TransportKind transport) {
        assertThat(run("serve", "--host", NO_ADDRESS, "--port", "0", "--transport", transport.cliName())).isEqualTo(1);
        assertOneLine(err()).startsWith("petrel: cannot listen on " + NO_ADDRESS + ":0: ");
    }

    @ParameterizedTest
    @EnumSource(TransportKind.class)
    void anAjpAddressThatIsNoneIsOneLineNamingIt(TransportKind transport) {
        assertThat(run("serve", "--port", "0", "--transport", transport.cliName(), "--ajp-port", "0", "--ajp-no-secret",
                "--ajp-host", NO_ADDRESS)).isEqualTo(1);
        assertOneLine(err()).startsWith("petrel: cannot listen on " + NO_ADDRESS + ":0: ").doesNotContain("127.0.0.1");
    }

    @Test
    void anAdminAddressThatIsNoneIsNamedNotTheServersAddress() {
        assertThat(run("serve", "--port", "0", "--admin-port", "0", "--admin-host", NO_ADDRESS)).isEqualTo(1);
        assertOneLine(err()).startsWith("petrel: cannot listen on " + NO_ADDRESS + ":0: ").doesNotContain("127.0.0.1");
    }

    @Test
    void anAccessLogThatCannotBeOpenedSaysWhy(@TempDir Path dir) throws Exception {
        Path inMissingFolder = dir.resolve("missing").resolve("a.log");
        assertThat(run("serve", "--port", "0", "--access-log", inMissingFolder.toString())).isEqualTo(1);
        assertOneLine(err()).isEqualTo("petrel: --access-log " + inMissingFolder + ": cannot open it: the folder "
                + inMissingFolder.getParent() + " does not exist\n");

        err.reset();
        assertThat(run("serve", "--port", "0", "--access-log", dir.toString())).isEqualTo(1);
        assertOneLine(err()).startsWith("petrel: --access-log " + dir + ": cannot open it: ").contains("folder");
    }

    @Test
    void anOldTlsVersionIsRefusedBeforeTheServerStarts(@TempDir Path dir) {
        assertThat(run("serve", "--port", "0", "--https-port", "0", "--tls-dir", dir.toString(), "--tls-protocols", "SSLv3")).isEqualTo(2);
        assertOneLine(err()).isEqualTo("petrel: --tls-protocols takes one or more of TLSv1.3, TLSv1.2, not 'SSLv3'"
                + " (TLS 1.1 and older are deprecated, RFC 8996) (see 'petrel help')\n");
    }

    private static org.assertj.core.api.AbstractStringAssert<?> assertOneLine(String text) {
        assertThat(text.lines().count()).as("lines in %s", text).isEqualTo(1);
        return assertThat(text).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void badTlsFilesStopTheStartWithOneLineNamingTheFile(@TempDir Path dir) throws Exception {
        Fixtures fixtures = new Fixtures(dir);
        Fixtures.Pair good = fixtures.selfSigned("good", "ec", "localhost");
        Fixtures.Pair other = fixtures.selfSigned("other", "ec", "localhost");
        Path garbage = Files.writeString(dir.resolve("garbage.key"), "not a key\n");
        Path missing = dir.resolve("missing.crt");
        String[][] cases = {
            {missing.toString(), good.key().toString(), "missing.crt"},
            {good.certificate().toString(), other.key().toString(), "other.key"},
            {good.certificate().toString(), garbage.toString(), "garbage.key"},
        };
        for (String[] c : cases) {
            err.reset();
            assertThat(run("serve", "--port", "0", "--https-port", "0", "--tls-cert", c[0], "--tls-key", c[1]))
                    .as("exit status for %s", c[2]).isEqualTo(1);
            assertThat(err()).startsWith("petrel: cannot serve HTTPS: ").contains(c[2])
                    .doesNotContain("Exception").doesNotContain("\tat ");
            assertThat(err().lines().count()).isEqualTo(1);
        }
    }

    @Test
    void anExpiredCertificateStopsTheStart(@TempDir Path dir) throws Exception {
        Fixtures.Pair expired = new Fixtures(dir).datedFrom("expired", "-1y");
        assertThat(run("serve", "--port", "0", "--https-port", "0", "--tls-cert", expired.certificate().toString(),
                "--tls-key", expired.key().toString())).isEqualTo(1);
        assertThat(err()).startsWith("petrel: cannot serve HTTPS: ").contains("expired");
        assertThat(err().lines().count()).isEqualTo(1);
    }

    @Test
    void aBadHttpsCombinationIsAUsageError() {
        assertThat(run("serve", "--no-http")).isEqualTo(2);
        assertThat(err()).isEqualTo("petrel: --no-http needs --https (or --https-port, --tls-cert) or --ajp-port (see 'petrel help')\n");
    }

    @Test
    void ajpWithoutASecretIsRefusedWithOneLine() {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("PETREL_AJP_SECRET") == null);
        assertThat(run("serve", "--port", "0", "--ajp-port", "0")).isEqualTo(2);
        assertThat(err()).startsWith("petrel: cannot serve AJP: --ajp-port needs the secret the front end sends")
                .contains("--ajp-no-secret");
        assertThat(err().lines().count()).isEqualTo(1);
    }

    @Test
    void theHelpListsEveryCommandOfTheLauncher() throws Exception {
        // the commands ./petrel runs itself before it hands the rest to Main
        java.util.regex.Matcher command = java.util.regex.Pattern.compile("\\[ \"\\$\\{1:-}\" = \"([a-z]+)\" ]")
                .matcher(Files.readString(Path.of("..", "petrel")));
        List<String> launcher = new java.util.ArrayList<>();
        while (command.find()) launcher.add(command.group(1));
        assertThat(launcher).contains("bench", "dist", "jmh");

        assertThat(run("help")).isZero();
        String help = out.toString(StandardCharsets.UTF_8);
        for (String name : launcher) {
            assertThat(help).as("petrel help").containsPattern("(?m)^  " + name + " ");
            err.reset();
            assertThat(run(name)).as("petrel %s without the launcher", name).isEqualTo(2);
            assertThat(err()).startsWith("petrel: ").contains("./petrel " + name);
        }
    }

    @Test
    void printsHelpAndVersion() {
        assertThat(run("serve", "--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("--transport NAME").contains("--root DIR")
                .contains("--https ").contains("--tls-cert FILE").contains("--no-http");
        out.reset();
        assertThat(run("version")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("petrel ");
    }
}
