package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.bench.model.NotApplicable;
import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.ServerInfo.Group;
import dev.petrel.bench.servers.LabUnavailable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that cannot run on this machine (io_uring refused) says so and exits with
 * {@link LabUnavailable#EXIT}: the lab reads that as "not applicable here", any other early exit as
 * a failure.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServerUnavailableTest {
    @TempDir
    Path dir;

    @Test
    void aServerThatSaysItCannotRunHereIsUnavailableWithItsReason() {
        ServerSpec spec = exitingWith(LabUnavailable.EXIT, LabUnavailable.PREFIX + "io_uring: refused by seccomp");

        assertThatThrownBy(() -> RunningServer.start(spec, 19_190, null, 0, dir.resolve("logs/s.log"), Duration.ofSeconds(10)))
                .isInstanceOfSatisfying(ServerUnavailableException.class,
                        e -> assertThat(e.reason()).isEqualTo("io_uring: refused by seccomp"));
    }

    @Test
    void anotherExitOrTheSameStatusWithoutTheLineIsAFailure() {
        ServerSpec other = exitingWith(1, LabUnavailable.PREFIX + "io_uring: refused");
        ServerSpec silent = exitingWith(LabUnavailable.EXIT, "something else");

        assertThatThrownBy(() -> RunningServer.start(other, 19_191, null, 0, dir.resolve("logs/a.log"), Duration.ofSeconds(10)))
                .isInstanceOf(IOException.class).isNotInstanceOf(ServerUnavailableException.class).hasMessageContaining("exited with 1");
        assertThatThrownBy(() -> RunningServer.start(silent, 19_192, null, 0, dir.resolve("logs/b.log"), Duration.ofSeconds(10)))
                .isInstanceOf(IOException.class).isNotInstanceOf(ServerUnavailableException.class).hasMessageContaining("exited with 3");
    }

    @Test
    void everyCellOfTheServerIsMarkedNotApplicableWithTheReason() throws IOException {
        ServerSpec spec = exitingWith(LabUnavailable.EXIT, "x");
        RunResults results = new RunResults(null);

        Lab.markUnavailable(new ConnectorsScenario(true), spec, "io_uring: refused", results);

        assertThat(results.notApplicable()).hasSize(ConnectorsScenario.VARIANTS.size())
                .allMatch(n -> n.server().equals("stand-in") && n.reason().equals("cannot run here: io_uring: refused"))
                .extracting(NotApplicable::variant).containsExactlyElementsOf(
                        ConnectorsScenario.VARIANTS.stream().map(ConnectorsScenario.Variant::name).toList());
        Files.writeString(dir.resolve("log"), "starting\n" + LabUnavailable.PREFIX + "io_uring: no\n");
        assertThat(RunningServer.unavailableReason(dir.resolve("log"))).isEqualTo("io_uring: no");
    }

    private static ServerSpec exitingWith(int status, String line) {
        return new ServerSpec("stand-in", Group.PEER, "exits", (port, tls, ajp, h2, webSocket, folder) ->
                List.of("sh", "-c", "echo '" + line + "'; exit " + status), false, false);
    }
}
