package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.bench.model.Environment;
import dev.petrel.bench.model.NotApplicable;
import dev.petrel.bench.model.RunResults;
import dev.petrel.server.config.TransportKind;
import java.util.Map;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TomcatScenarioTest {
    @TempDir
    Path home;

    private LabPaths paths() {
        return new LabPaths(home, Path.of("/jdk/bin/java"));
    }

    private static ServerSpec named(List<ServerSpec> servers, String name) {
        return servers.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theJarRunsWithPetrelOnATransportOrSwitchedOff() {
        List<ServerSpec> servers = ServerCatalog.all(paths());
        Path jar = home.resolve("examples/spring-boot/target/hello.jar");

        assertThat(named(servers, "boot-jar-petrel-virtual").command().line(18_400, null, false, Path.of("folder"))).startsWith("/jdk/bin/java")
                .containsSubsequence("-jar", jar.toString(), "--server.port=18400", "--server.address=127.0.0.1",
                        "--petrel.transport=virtual").containsAll(ServerCatalog.JVM_OPTIONS);
        assertThat(named(servers, "boot-jar-tomcat-nio").command().line(18_400, null, false, Path.of("folder")))
                .endsWith("--petrel.enabled=false");
    }

    @Test
    void theWarsServerXmlHasAnHttpAndAnHttpsConnectorOfOneKind() {
        LabCertificate tls = new LabCertificate(home.resolve("tls"), null);

        String petrel = StandaloneTomcat.connectors(18_400, tls, TransportKind.NIO);
        assertThat(petrel).contains("<Connector port=\"18400\" address=\"127.0.0.1\" protocol=\"dev.petrel.tomcat.PetrelHttp11Protocol\" transport=\"nio\"/>")
                .contains("<Connector port=\"18401\" address=\"127.0.0.1\" protocol=\"dev.petrel.tomcat.PetrelHttp11Protocol\" transport=\"nio\" SSLEnabled=\"true\">")
                .contains("certificateKeystoreFile=\"" + tls.pkcs12() + "\"")
                .contains("certificateKeystorePassword=\"" + LabCertificate.PASSWORD + "\"");
        String nio = StandaloneTomcat.connectors(18_400, null, null);
        assertThat(nio).isEqualTo("<Connector port=\"18400\" address=\"127.0.0.1\" protocol=\"HTTP/1.1\"/>\n");
    }

    @Test
    void unavailableUntilTheExampleIsBuilt() {
        assertThat(new TomcatScenario(true, paths()).unavailable()).contains("examples/spring-boot is not built");
    }

    @Test
    void theJarsHaveNoHttpsOrJspColumnsTheWarsHaveAll() {
        TomcatScenario scenario = new TomcatScenario(true, paths());
        List<ServerSpec> servers = ServerCatalog.all(paths());

        assertThat(scenario.application()).isTrue();
        assertThat(scenario.sections()).extracting(s -> s.name()).containsExactly("tomcat", "tomcat-jsp");
        assertThat(scenario.sections().get(1).variants())
                .containsExactly("HTTP keep-alive", "HTTP no keep-alive", "HTTP keep-alive (ab -k, client-bound)");
        // the same columns, metrics and asides as the connectors scenario
        assertThat(scenario.info().metrics()).isEqualTo(new ConnectorsScenario(true).info().metrics());
        assertThat(scenario.sections()).allMatch(s -> s.asides().equals(ConnectorsScenario.asides()));
        assertThat(ServerCatalog.isWar(named(servers, "boot-war-petrel-nio"))).isTrue();
        assertThat(ServerCatalog.isWar(named(servers, "boot-jar-petrel-nio"))).isFalse();
        assertThat(Applicability.applicable(scenario, servers)).allMatch(ServerSpec::application).hasSize(8);
    }

    @Test
    void inARunOfBothKindsEachScenarioSaysWhyTheOtherKindHasNoFigure() {
        List<ServerSpec> all = ServerCatalog.all(paths());
        List<ServerSpec> chosen = List.of(named(all, "petrel-nio"), named(all, "boot-jar-petrel-nio"));
        RunResults results = new RunResults(new Environment("2026-11-24T10:00:00Z", "abc", "25", "", "6.8", "cpu", 2, 0, 1,
                Map.of(), "./petrel bench connectors tomcat", false));

        Lab.markNotApplicable(new ConnectorsScenario(false), chosen, results);
        Lab.markNotApplicable(new TomcatScenario(false, paths()), chosen, results);

        assertThat(results.notApplicable()).filteredOn(n -> n.scenario().equals("connectors"))
                .extracting(NotApplicable::server).containsOnly("boot-jar-petrel-nio");
        assertThat(results.notApplicable()).filteredOn(n -> n.scenario().startsWith("tomcat"))
                .extracting(NotApplicable::server).containsOnly("petrel-nio");
        assertThat(results.notApplicable()).filteredOn(n -> n.server().equals("petrel-nio"))
                .extracting(NotApplicable::reason).containsOnly("serves the lab's HelloWorld; the tomcat scenarios measure the Spring Boot application");
    }
}
