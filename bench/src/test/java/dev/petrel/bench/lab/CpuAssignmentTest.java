package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Which CPU the server and which the client get in each pass. */
class CpuAssignmentTest {

    @Test
    void oddPassesPutTheServerOnCpu0AndEvenPassesOnCpu1() {
        assertThat(IntStream.rangeClosed(1, 4).mapToObj(pass -> CpuAssignment.forPass(pass, 2, false))).containsExactly(
                new CpuAssignment(0, 1), new CpuAssignment(1, 0), new CpuAssignment(0, 1), new CpuAssignment(1, 0));
        // more CPUs than two: still the first two, so that runs on bigger machines read alike
        assertThat(CpuAssignment.forPass(2, 8, false)).isEqualTo(new CpuAssignment(1, 0));
    }

    @Test
    void oneCpuOrSameCpuOnlyKeepsEverythingOnCpu0() {
        for (int pass = 1; pass <= 4; pass++) {
            assertThat(CpuAssignment.forPass(pass, 1, false)).isEqualTo(new CpuAssignment(0, 0));
            assertThat(CpuAssignment.forPass(pass, 2, true)).isEqualTo(new CpuAssignment(0, 0));
        }
        assertThatThrownBy(() -> CpuAssignment.forPass(0, 2, false)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void onlyTwoPassesOrMoreOnTwoCpusMeasureBothAssignments() {
        assertThat(CpuAssignment.alternates(1, 2, false)).isFalse();
        assertThat(CpuAssignment.alternates(2, 2, false)).isTrue();
        assertThat(CpuAssignment.alternates(3, 2, false)).isTrue();
        assertThat(CpuAssignment.alternates(3, 1, false)).isFalse();
        assertThat(CpuAssignment.alternates(3, 2, true)).isFalse();
    }
}
