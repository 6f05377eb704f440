package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class LabOptionsTest {
    @Test
    void defaultsToThreePassesOneForTheRampAndOneWhenQuick() throws LabException {
        LabOptions full = LabOptions.parse(List.of("all"));
        assertThat(full.passesFor("latency")).isEqualTo(3);
        assertThat(full.passesFor("idle")).isEqualTo(3);
        assertThat(full.passesFor("ramp")).isEqualTo(1);
        assertThat(full.passesFor("tomcat-ramp")).isEqualTo(1);
        assertThat(full.passesFor("tomcat")).isEqualTo(3);
        assertThat(full.passesFor("ajp")).isEqualTo(3);
        LabOptions quick = LabOptions.parse(List.of("all", "--quick"));
        assertThat(quick.passesFor("latency")).isEqualTo(1);
        assertThat(quick.passesFor("ramp")).isEqualTo(1);
        assertThat(quick.smoke()).isFalse();
        LabOptions smoke = LabOptions.parse(List.of("all", "--smoke"));
        assertThat(smoke.quick()).isTrue();
        assertThat(smoke.smoke()).isTrue();
        assertThat(smoke.passesFor("latency")).isEqualTo(1);
        assertThat(LabOptions.parse(List.of("ramp", "--passes", "2")).passesFor("ramp")).isEqualTo(2);
    }

    @Test
    void theSoaksMinutesAndSeedAreReadAndCheckedAndKeptApart() throws LabException {
        LabOptions soak = LabOptions.parse(List.of("soak", "--minutes", "60", "--seed", "7"));
        assertThat(soak.minutes()).isEqualTo(60);
        assertThat(soak.seed()).isEqualTo(7L);
        assertThat(soak.withScenarios(List.of("soak")).minutes()).isEqualTo(60);
        assertThat(LabOptions.parse(List.of("soak")).minutes()).as("the soak's own default").isNull();
        assertThatThrownBy(() -> LabOptions.parse(List.of("soak", "--minutes", "0"))).hasMessage("--minutes takes a number from 1 to 600");
        assertThatThrownBy(() -> LabOptions.parse(List.of("soak", "--seed", "x"))).hasMessage("--seed takes a whole number, not 'x'");
        assertThat(LabOptions.APART).containsExactly("failover", "soak");
    }

    @Test
    void expandsAllAndKeepsOrderWithoutRepeats() throws LabException {
        LabOptions options = LabOptions.parse(List.of("ramp", "all", "--servers", "baseline-c,petrel-virtual"));

        assertThat(options.scenarios()).containsExactly("ramp", "latency", "connectors", "single-cpu", "tail", "idle", "idle-tls", "ajp",
                "tomcat", "tomcat-ramp", "tls", "h2", "websocket", "failover", "soak");
        assertThat(options.servers()).containsExactly("baseline-c", "petrel-virtual");
        // failover runs apart from the per-server scenarios, with the same options
        LabOptions perServer = options.withScenarios(List.of("ramp"));
        assertThat(perServer.scenarios()).containsExactly("ramp");
        assertThat(perServer.servers()).isEqualTo(options.servers());
    }

    @Test
    void beforeNamesAnotherBuildsLibrariesWhichMustExist(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws LabException {
        assertThat(LabOptions.parse(List.of("latency")).before()).isNull();
        assertThat(LabOptions.parse(List.of("latency", "--before", dir.toString())).before()).isEqualTo(dir.toAbsolutePath());
        assertThatThrownBy(() -> LabOptions.parse(List.of("latency", "--before", dir.resolve("missing").toString())))
                .hasMessageEndingWith("missing is not a folder");
        assertThatThrownBy(() -> LabOptions.parse(List.of("latency", "--before"))).hasMessageStartingWith("--before needs a folder");
    }

    @Test
    void explainsBadInputInOneLine() {
        assertThatThrownBy(() -> LabOptions.parse(List.of("speed"))).hasMessageStartingWith("unknown scenario 'speed'");
        assertThatThrownBy(() -> LabOptions.parse(List.of("latency", "--passes", "0"))).hasMessage("--passes takes a number from 1 to 20");
        assertThatThrownBy(() -> LabOptions.parse(List.of("--quick"))).hasMessageStartingWith("name a scenario");
        assertThatThrownBy(() -> LabOptions.parse(List.of("latency", "--fast"))).hasMessage("unknown option '--fast'");
    }
}
