package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code /proc/PID/stat} lines captured on this machine, and the CPU arithmetic of a process group
 * whose children come and go between two samples.
 */
class ProcessCpuTest {
    /** bash: utime 4, stime 15, and 12361 + 3413 ticks of the children it reaped. */
    private static final String BASH = "27821 (bash) S 27820 27821 27821 0 -1 4194560 24732 1868945 0 171 4 15 12361 3413 "
            + "20 0 1 0 1985833 5357568 1043 18446744073709551615 93831061352448 93831062141853 140728606832240 0 0 0 65536 "
            + "4 1132560123 1 0 0 17 1 0 0 0 0 0 93831062375152 93831062423396 93831369015296 140728606833502 "
            + "140728606833517 140728606833517 140728606834666 0\n";
    /** A process that named itself {@code we(i)rd ) name} (prctl PR_SET_NAME): spaces and parentheses in field 2. */
    private static final String ODD_NAME = "29576 (we(i)rd ) name) R 29573 29573 27821 0 -1 4194304 2892 6549 1 0 3 1 2 1 "
            + "20 0 1 0 2068949 17162240 3434 18446744073709551615 94269930835968 94269930836309 140732860924208 0 0 0 0 "
            + "16781312 2 0 0 0 17 1 0 0 0 0 0 94269930847664 94269930848280 94270964350976 140732860926051 "
            + "140732860926218 140732860926218 140732860927951 0\n";

    @Test
    void readsTheTimesOfARealStatLine() {
        ProcessCpu.Times bash = ProcessCpu.parse(BASH);

        assertThat(bash).isEqualTo(new ProcessCpu.Times(27821, 27820, 'S', 4, 15, 12361, 3413));
        assertThat(bash.own()).isEqualTo(19);
        assertThat(bash.reaped()).isEqualTo(15774);
    }

    @Test
    void countsFieldsFromTheLastParenthesisSinceTheNameMayHoldAny() {
        assertThat(ProcessCpu.parse(ODD_NAME)).isEqualTo(new ProcessCpu.Times(29576, 29573, 'R', 3, 1, 2, 1));
    }

    @Test
    void refusesWhatIsNotAStatLine() {
        assertThatThrownBy(() -> ProcessCpu.parse("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcessCpu.parse("12 (short) S 1 2 3")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fields");
        assertThatThrownBy(() -> ProcessCpu.parse(BASH.replace(" 4 15 12361", " x 15 12361")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("non-numeric");
    }

    @Test
    void readsThisJvmFromProc() throws IOException {
        ProcessCpu.Times self = ProcessCpu.read(ProcessHandle.current().pid());

        assertThat(self.pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(self.own()).isNotNegative();
        assertThat(ProcessCpu.allowedCpus(ProcessHandle.current().pid())).matches("[0-9,\\-]+");
        assertThatThrownBy(() -> ProcessCpu.read(Integer.MAX_VALUE)).isInstanceOf(IOException.class)
                .hasMessageContaining("has the process exited?");
    }

    private static ProcessCpu.Times times(long pid, long utime, long stime, long cutime, long cstime) {
        return new ProcessCpu.Times(pid, pid == 100 ? 1 : 100, 'S', utime, stime, cutime, cstime);
    }

    private static ProcessCpu.Sample sample(ProcessCpu.Times main, ProcessCpu.Times... children) {
        Map<Long, ProcessCpu.Times> byPid = new LinkedHashMap<>();
        for (ProcessCpu.Times child : children) byPid.put(child.pid(), child);
        return new ProcessCpu.Sample(0, main, byPid, List.of(), true);
    }

    @Test
    void aGroupCountsChildrenAliveAtBothEndsByTheirDifference() {
        ProcessCpu.Sample start = sample(times(100, 1, 1, 0, 0), times(101, 10, 5, 0, 0), times(102, 3, 3, 0, 0));
        ProcessCpu.Sample end = sample(times(100, 2, 1, 0, 0), times(101, 40, 15, 0, 0), times(102, 3, 4, 0, 0));

        // main 1, child 101: 55 - 15 = 40, child 102: 1
        assertThat(ProcessCpu.ticksBetween(start, end)).isEqualTo(42);
    }

    @Test
    void aChildBornInTheWindowCountsWholeAndOneThatExitedCountsThroughTheParentsCutime() {
        // 101 lives on; 102 had 6 ticks at the start, then exited after 20 in all and was reaped (cutime + cstime
        // grow by its 20); 103 was born and is alive with 7; 104 was born, used 9 and was reaped within the window
        ProcessCpu.Sample start = sample(times(100, 0, 0, 50, 10), times(101, 10, 0, 0, 0), times(102, 4, 2, 0, 0));
        ProcessCpu.Sample end = sample(times(100, 0, 0, 50 + 15 + 6, 10 + 5 + 3), times(101, 12, 0, 0, 0),
                times(103, 5, 2, 0, 0));

        // 101: 2; 102: 20 - 6 = 14; 103: 7; 104: 9
        assertThat(ProcessCpu.ticksBetween(start, end)).isEqualTo(2 + 14 + 7 + 9);
    }

    @Test
    void oneProcessCountsItsOwnTimeOnly() {
        ProcessCpu.Times start = ProcessCpu.parse(BASH);
        ProcessCpu.Times end = new ProcessCpu.Times(27821, 27820, 'S', 104, 65, 99999, 99999);

        assertThat(ProcessCpu.ticksBetween(start, end)).isEqualTo(150);
        assertThatThrownBy(() -> ProcessCpu.ticksBetween(start, ProcessCpu.parse(ODD_NAME)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcessCpu.ticksBetween(sample(times(100, 0, 0, 0, 0)), sample(times(101, 0, 0, 0, 0))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void percentOfOneCoreIsTicksOverTheTicksTheWindowLasted() {
        // 60 s at 100 ticks a second is 6000 ticks: 778 of them is 12.97 %, the seed's Apache figure
        assertThat(ProcessCpu.percentOfOneCore(778, 100, 60_000_000_000L)).isCloseTo(12.9667, within(1e-4));
        assertThat(ProcessCpu.percentOfOneCore(6000, 100, 60_000_000_000L)).isEqualTo(100.0);
        // two cores busy for half a second
        assertThat(ProcessCpu.percentOfOneCore(100, 100, 500_000_000L)).isEqualTo(200.0);
        assertThat(ProcessCpu.percentOfOneCore(0, 250, 1)).isZero();
        assertThatThrownBy(() -> ProcessCpu.percentOfOneCore(1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcessCpu.percentOfOneCore(1, 100, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void cpuPerEventIsTheTicksTimeSharedByTheEvents() {
        // 150 ticks at 100 a second: 1.5 s of CPU over 3,000 handshakes
        assertThat(ProcessCpu.microsEach(150, 100, 3_000)).isEqualTo(500.0);
        // one tick over a few events: the resolution a short window has
        assertThat(ProcessCpu.microsEach(1, 100, 40)).isEqualTo(250.0);
        assertThat(ProcessCpu.microsEach(0, 100, 40)).isZero();
        assertThat(ProcessCpu.microsEach(12, 1000, 4)).isCloseTo(3000.0, within(1e-9));
        assertThatThrownBy(() -> ProcessCpu.microsEach(10, 100, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcessCpu.microsEach(10, 0, 5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theClockTicksComeFromGetconf() throws IOException {
        assertThat(ProcessCpu.ticksPerSecond()).isPositive();
    }
}
