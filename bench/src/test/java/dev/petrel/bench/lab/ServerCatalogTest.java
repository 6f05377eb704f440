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
    void http2IsAskedOfJvmServersOnlyWhenAScenarioWantsIt() {
        List<ServerSpec> servers = ServerCatalog.all(paths());
        String property = "-D" + ServerCatalog.H2_PROPERTY + "=true";

        assertThat(ServerCatalog.H2_PROPERTY).isEqualTo("petrel.bench.h2");
        for (String name : List.of("petrel-nio", "tomcat-nio", "jetty", "undertow", "netty-epoll", "vertx", "helidon")) {
            assertThat(named(servers, name).command().line(18_400, null, false, true, Path.of("folder"))).contains(property);
            assertThat(named(servers, name).command().line(18_400, null, false, Path.of("folder"))).doesNotContain(property);
        }
    }

    @Test
    void theH2ScenarioRunsTheServersThatSpeakHttp2() {
        List<ServerSpec> servers = ServerCatalog.all(paths());
        H2Scenario h2 = new H2Scenario(true);

        assertThat(Applicability.applicable(h2, servers)).extracting(ServerSpec::name)
                .contains("petrel-nio", "petrel-virtual", "petrel-blocking", "petrel-nio-native", "tomcat-nio", "tomcat-petrel-nio",
                        "jetty", "undertow", "netty-epoll", "netty-epoll-boringssl", "vertx", "helidon")
                .doesNotContain("baseline-c", "jdk-httpserver", Nginx.NAME, "boot-jar-tomcat-nio");
        assertThat(Applicability.reason(h2, named(servers, "petrel-nio-native"), H2Scenario.H2C_100X10.name()))
                .isEqualTo(ServerCatalog.ONLY_TLS_ENGINE);
        assertThat(Applicability.reason(h2, named(servers, "petrel-nio-native"), H2Scenario.H2_100X10.name())).isNull();
    }

    @Test
    void anotherBuildsPetrelServersRunFromItsLibrariesWithTheSameArguments() {
        Path before = home.resolve("before/bench/target/lib");
        List<ServerSpec> servers = ServerCatalog.all(paths(), before);

        List<String> now = named(servers, "petrel-nio-inline").command().line(18_400, null, false, Path.of("folder"));
        List<String> then = named(servers, "before-petrel-nio-inline").command().line(18_400, null, false, Path.of("folder"));
        assertThat(then).contains(before + "/*").doesNotContain(paths().libraries() + "/*");
        assertThat(now).contains(paths().libraries() + "/*");
        assertThat(then.subList(then.indexOf(before + "/*") + 1, then.size()))
                .isEqualTo(now.subList(now.indexOf(paths().libraries() + "/*") + 1, now.size()));
        assertThat(servers).extracting(ServerSpec::name)
                .contains("before-petrel-blocking", "before-petrel-virtual", "before-petrel-nio");
        assertThat(named(servers, "before-petrel-nio").group()).isEqualTo(named(servers, "petrel-nio").group());

        // the native engine's servers too, measured over TLS only as theirs are
        List<String> nativeNow = named(servers, "petrel-nio-native").command().line(18_400, null, false, Path.of("folder"));
        List<String> nativeThen = named(servers, "before-petrel-nio-native").command().line(18_400, null, false, Path.of("folder"));
        assertThat(nativeThen.subList(nativeThen.indexOf(before + "/*") + 1, nativeThen.size()))
                .isEqualTo(nativeNow.subList(nativeNow.indexOf(paths().libraries() + "/*") + 1, nativeNow.size()));
        assertThat(named(servers, "before-petrel-nio-native").onlyOverTls()).isEqualTo(named(servers, "petrel-nio-native").onlyOverTls());
    }

    @Test
    void petrelsNativeServersAreTheSameServersNamingTheNativeEngine() {
        List<ServerSpec> servers = ServerCatalog.all(paths());

        for (String twin : List.of("petrel-blocking", "petrel-virtual", "petrel-nio", "petrel-nio-inline")) {
            List<String> plain = named(servers, twin).command().line(18_400, null, false, Path.of("folder"));
            List<String> nativeEngine = named(servers, twin + "-native").command().line(18_400, null, false, Path.of("folder"));
            assertThat(nativeEngine).isEqualTo(concat(plain, "tls-engine=native"));
            assertThat(named(servers, twin + "-native").group()).isEqualTo(named(servers, twin).group());
            assertThat(named(servers, twin + "-native").description()).contains("native TLS engine, BoringSSL");
            assertThat(named(servers, twin + "-native").ajp()).isFalse();
        }
    }

    @Test
    void everyNettyServerNamesItsTlsProviderSoThatBoringSslOnTheClassPathChangesNoneSilently() {
        List<ServerSpec> servers = ServerCatalog.all(paths());

        assertThat(named(servers, "netty-epoll").command().line(18_400, null, false, Path.of("folder")))
                .endsWith("dev.petrel.bench.servers.NettyHello", "18400", "epoll", "jdk");
        assertThat(named(servers, "netty-nio").command().line(18_400, null, false, Path.of("folder")))
                .endsWith("dev.petrel.bench.servers.NettyHello", "18400", "nio", "jdk");
        assertThat(named(servers, "netty-epoll-boringssl").command().line(18_400, null, false, Path.of("folder")))
                .endsWith("dev.petrel.bench.servers.NettyHello", "18400", "epoll", "openssl");
    }

    @Test
    void everyJvmServerMayLoadNativeLibraries() {
        List<ServerSpec> servers = ServerCatalog.all(paths());

        assertThat(servers.stream().filter(s -> s.jvm() && !s.application()))
                .allSatisfy(s -> assertThat(s.command().line(18_400, null, false, Path.of("folder")))
                        .contains("--enable-native-access=ALL-UNNAMED"));
    }

    @Test
    void nginxIsTheNonJavaReferenceABaselineWithTls() {
        ServerSpec nginx = named(ServerCatalog.all(paths()), "nginx");

        assertThat(nginx.group()).isEqualTo(dev.petrel.bench.model.ServerInfo.Group.BASELINE);
        assertThat(nginx.jvm()).isFalse();
        assertThat(nginx.tls()).isTrue();
        assertThat(nginx.ajp()).isFalse();
        assertThat(nginx.onlyOverTls()).isNull();
        assertThat(nginx.description()).startsWith("nginx").contains("non-Java reference");
        // the do-nothing C server stays the first baseline, the figure "× baseline" is to over HTTP; the
        // WebSocket floor comes next, a baseline of the websocket scenario alone
        List<String> baselines = ServerCatalog.all(paths()).stream()
                .filter(s -> s.group() == dev.petrel.bench.model.ServerInfo.Group.BASELINE).map(ServerSpec::name).toList();
        assertThat(baselines).containsExactly("baseline-c", "baseline-c-ws", "nginx");
    }

    private static List<String> concat(List<String> list, String last) {
        List<String> all = new java.util.ArrayList<>(list);
        all.add(last);
        return all;
    }

    @Test
    void withoutABuildThereAreNoBeforeServers() {
        assertThat(ServerCatalog.all(paths())).extracting(ServerSpec::name).noneMatch(name -> name.startsWith("before-"));
    }
}
