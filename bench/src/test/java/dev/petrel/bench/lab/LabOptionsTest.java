package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class LabOptionsTest {
    @Test
    void defaultsToThreePassesAndOneWhenQuick() throws LabException {
        assertThat(LabOptions.parse(List.of("latency")).passes()).isEqualTo(3);
        assertThat(LabOptions.parse(List.of("latency", "--quick")).passes()).isEqualTo(1);
    }

    @Test
    void expandsAllAndKeepsOrderWithoutRepeats() throws LabException {
        LabOptions options = LabOptions.parse(List.of("ramp", "all", "--servers", "baseline-c,petrel-virtual"));

        assertThat(options.scenarios()).containsExactly("ramp", "latency", "connectors", "single-cpu");
        assertThat(options.servers()).containsExactly("baseline-c", "petrel-virtual");
    }

    @Test
    void explainsBadInputInOneLine() {
        assertThatThrownBy(() -> LabOptions.parse(List.of("speed"))).hasMessageStartingWith("unknown scenario 'speed'");
        assertThatThrownBy(() -> LabOptions.parse(List.of("latency", "--passes", "0"))).hasMessage("--passes takes a number from 1 to 20");
        assertThatThrownBy(() -> LabOptions.parse(List.of("--quick"))).hasMessageStartingWith("name a scenario");
        assertThatThrownBy(() -> LabOptions.parse(List.of("latency", "--fast"))).hasMessage("unknown option '--fast'");
    }
}
