package dev.petrel.bench.servers;

/**
 * How a lab server says that it cannot run on this machine at all (a kernel that refuses io_uring):
 * one line starting with {@link #PREFIX} and the reason, then exit status {@link #EXIT}. The lab
 * reads the two together as "not applicable here" rather than as a failure; keep both sides to
 * these constants.
 */
public final class LabUnavailable {
    /** The exit status. */
    public static final int EXIT = 3;
    /** What starts the line that says why. */
    public static final String PREFIX = "unavailable here: ";

    private LabUnavailable() {}
}
