package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --before}: another build's Petrel servers beside this one's, alike but for their class path. */
class ServerCatalogTest {
    @TempDir
    Path home;

    private LabPaths paths() {
        return new LabPaths(home, Path.of("/jdk/bin/java"));
    }

    private static ServerSpec named(List<ServerSpec> servers, String name) {
        return servers.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void anotherBuildsPetrelServersRunFromItsLibrariesWithTheSameArguments() {
        Path before = home.resolve("before/bench/target/lib");
        List<ServerSpec> servers = ServerCatalog.all(paths(), before);

        List<String> now = named(servers, "petrel-nio-inline").command().line(18_400, null, false);
        List<String> then = named(servers, "before-petrel-nio-inline").command().line(18_400, null, false);
        assertThat(then).contains(before + "/*").doesNotContain(paths().libraries() + "/*");
        assertThat(now).contains(paths().libraries() + "/*");
        assertThat(then.subList(then.indexOf(before + "/*") + 1, then.size()))
                .isEqualTo(now.subList(now.indexOf(paths().libraries() + "/*") + 1, now.size()));
        assertThat(servers).extracting(ServerSpec::name)
                .contains("before-petrel-blocking", "before-petrel-virtual", "before-petrel-nio");
        assertThat(named(servers, "before-petrel-nio").group()).isEqualTo(named(servers, "petrel-nio").group());
    }

    @Test
    void withoutABuildThereAreNoBeforeServers() {
        assertThat(ServerCatalog.all(paths())).extracting(ServerSpec::name).noneMatch(name -> name.startsWith("before-"));
    }
}
