package dev.petrel.bench.model;

import java.util.Map;

/**
 * The machine and software a run measured on.
 *
 * @param startedAt ISO-8601 start time
 * @param petrelCommit the git commit of Petrel (with {@code -dirty} when the tree had changes)
 * @param jdk the JDK's version string
 * @param jvmOptions the heap and other flags every JVM server got
 * @param kernel {@code uname -r}
 * @param cpuModel the CPU model name
 * @param cpus the number of CPUs
 * @param serverCpu the CPU servers were pinned to (in the first pass, when {@code cpusAlternate})
 * @param clientCpu the CPU load tools were pinned to (for cross-CPU runs; in the first pass, when
 *     {@code cpusAlternate})
 * @param tools each load tool's version line
 * @param command the command line of the run
 * @param quick whether this was a {@code --quick} smoke run (figures mean nothing then)
 * @param cpusAlternate whether even passes swap the two CPUs (server on {@code clientCpu}, tools on
 *     {@code serverCpu})
 */
public record Environment(String startedAt, String petrelCommit, String jdk, String jvmOptions, String kernel,
                          String cpuModel, int cpus, int serverCpu, int clientCpu, Map<String, String> tools,
                          String command, boolean quick, boolean cpusAlternate) {

    /** An environment whose every pass pinned the same way. */
    public Environment(String startedAt, String petrelCommit, String jdk, String jvmOptions, String kernel,
                       String cpuModel, int cpus, int serverCpu, int clientCpu, Map<String, String> tools,
                       String command, boolean quick) {
        this(startedAt, petrelCommit, jdk, jvmOptions, kernel, cpuModel, cpus, serverCpu, clientCpu, tools, command, quick, false);
    }
}
