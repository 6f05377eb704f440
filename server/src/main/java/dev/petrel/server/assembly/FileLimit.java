package dev.petrel.server.assembly;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The process's open-file limit against the connection limit: each connection is a file
 * descriptor, and running out of them makes accept fail. HotSpot already raises its soft limit to
 * the hard one at start; when even that is too low, say so once instead of failing later.
 */
final class FileLimit {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server");
    /** Descriptors the JVM, the listener and open files need beside the connections. */
    static final int RESERVE = 64;

    private FileLimit() {}

    /** The open-file limit, or -1 where the platform does not tell. */
    static long openFileLimit() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) return unix.getMaxFileDescriptorCount();
        return -1;
    }

    /** Logs a warning when {@code maxConnections} cannot fit under the open-file limit. */
    static void warnIfBelow(int maxConnections) {
        long limit = openFileLimit();
        if (limit > 0 && limit < (long) maxConnections + RESERVE) {
            LOG.log(System.Logger.Level.WARNING, "the open-file limit is " + limit + ", too low for " + maxConnections
                    + " connections: accept will fail past about " + (limit - RESERVE)
                    + "; raise it (ulimit -n, or LimitNOFILE for a systemd service)");
        }
    }
}
