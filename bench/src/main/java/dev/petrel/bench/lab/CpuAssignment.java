package dev.petrel.bench.lab;

/**
 * Which CPU the server and which the load tool are pinned to in one pass. On this lab's two-CPU
 * machines the CPU a server gets moves its figures by up to 1.4× (which CPU takes the device
 * interrupts, what else the host runs there), so passes alternate: odd passes put the server on
 * CPU 0 and the client on CPU 1, even passes the other way round, and the report gives each
 * assignment's median beside the median of all. With one CPU, or when asked to keep everything on
 * one ({@code --same-cpu-only}), both are on CPU 0 in every pass.
 *
 * @param serverCpu the server's CPU
 * @param clientCpu the load tool's CPU
 */
record CpuAssignment(int serverCpu, int clientCpu) {
    /**
     * The assignment of pass {@code pass} (from 1).
     *
     * @param cpus how many CPUs the machine has
     * @param sameCpuOnly whether every tool runs on the server's CPU
     */
    static CpuAssignment forPass(int pass, int cpus, boolean sameCpuOnly) {
        if (pass < 1) throw new IllegalArgumentException("passes count from 1: " + pass);
        if (cpus < 2 || sameCpuOnly) return new CpuAssignment(0, 0);
        return pass % 2 == 1 ? new CpuAssignment(0, 1) : new CpuAssignment(1, 0);
    }

    /** Whether {@code passes} passes measure both assignments (a run of one pass has the first only). */
    static boolean alternates(int passes, int cpus, boolean sameCpuOnly) {
        return passes >= 2 && forPass(1, cpus, sameCpuOnly).serverCpu() != forPass(2, cpus, sameCpuOnly).serverCpu();
    }
}
