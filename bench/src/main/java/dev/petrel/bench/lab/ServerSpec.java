package dev.petrel.bench.lab;

import dev.petrel.bench.model.ServerInfo;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A server the lab can run: its name, its role, and the command that starts it on a port.
 * Adding a server to the lab is one of these in {@link ServerCatalog}.
 *
 * @param name short name used on the command line and in reports
 * @param group Petrel, a peer, or the baseline
 * @param description what it is, with its version
 * @param command the command line for a port (without CPU pinning)
 * @param jvm whether it runs on the lab's JDK, so that {@code jcmd} can read its heap
 */
record ServerSpec(String name, ServerInfo.Group group, String description, IntFunction<List<String>> command,
                  boolean jvm) {}
