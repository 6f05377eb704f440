package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The resident set and the heap after GC read back from real {@code /proc/PID/status} texts and
 * real {@code jcmd} outputs, captured on this machine from JDK 25 (and one from JDK 17, whose
 * heap_info also lists Metaspace).
 */
class ProcessMemoryTest {
    private static String resource(String name) throws IOException {
        try (InputStream in = ProcessMemoryTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void readsVmRssInKib() throws IOException {
        // VmHWM, RssAnon and RssFile sit around it; only VmRSS is the resident set
        assertThat(ProcessMemory.rssKib(resource("proc-status.txt"))).isEqualTo(117_236);
    }

    @Test
    void refusesAStatusWithoutVmRss() throws IOException {
        // a kernel thread has no memory of its own and no Vm* lines
        assertThatThrownBy(() -> ProcessMemory.rssKib(resource("proc-status-kthread.txt")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("VmRSS");
    }

    @Test
    void readsTheG1HeapLineAfterGcRun() throws IOException {
        // "total reserved 524288K, committed 524288K, used 9440K": the used figure, not reserved or committed
        assertThat(ProcessMemory.heapUsedKib(resource("jcmd-g1.txt"))).isEqualTo(9440);
    }

    @Test
    void addsUpTheGenerationsOfTheSerialCollector() throws IOException {
        // a server pinned to one CPU gets Serial: DefNew used 0K + Tenured used 51860K; "14% used" lines are spaces
        assertThat(ProcessMemory.heapUsedKib(resource("jcmd-serial.txt"))).isEqualTo(51_860);
    }

    @Test
    void addsUpTheGenerationsOfTheParallelCollector() throws IOException {
        assertThat(ProcessMemory.heapUsedKib(resource("jcmd-parallel.txt"))).isEqualTo(0 + 9192);
    }

    @Test
    void leavesMetaspaceOutOfTheHeap() throws IOException {
        // JDK 17: "Metaspace used 9095K" and "class space used 1094K" follow the heap line
        assertThat(ProcessMemory.heapUsedKib(resource("jcmd-g1-jdk17.txt"))).isEqualTo(11_434);
    }

    @Test
    void refusesJcmdOutputWithoutAHeap() throws IOException {
        assertThatThrownBy(() -> ProcessMemory.heapUsedKib(resource("jcmd-no-jvm.txt")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("GC.heap_info");
    }
}
