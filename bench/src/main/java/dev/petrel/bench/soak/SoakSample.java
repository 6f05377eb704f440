package dev.petrel.bench.soak;

import java.util.Map;

/**
 * One reading of a soaked server, every {@link SoakSampler#INTERVAL}. A figure that could not be
 * read (the server does not have it, as Tomcat has no resource counts) is NaN or absent.
 *
 * @param seconds       since the traffic started (negative: before it, the baseline)
 * @param rssMib        the resident set
 * @param heapMib       the heap in use right after a full GC
 * @param nativeMib     what native memory tracking counts as committed in all
 * @param directMib     its {@code Other} part: direct buffers and what else the JDK allocates with malloc for Java code
 * @param fds           open file descriptors
 * @param threads       the JVM's threads
 * @param established   established TCP connections on the server's ports, as the kernel lists them
 *                      ({@code /proc/net/tcp}): the same measure for every server
 * @param connections   live connections over every listener (Petrel's admin listener), NaN without
 * @param sessions      WebSocket sessions open, NaN without
 * @param outstanding   Petrel's resources taken and not given back ({@code /resources}), empty without
 */
record SoakSample(double seconds, double rssMib, double heapMib, double nativeMib, double directMib, double fds, double threads,
                  double established, double connections, double sessions, Map<String, Long> outstanding) {}
