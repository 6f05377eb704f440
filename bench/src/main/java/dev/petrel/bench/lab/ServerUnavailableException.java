package dev.petrel.bench.lab;

import java.io.IOException;

/**
 * A server that said, as it exited, that it cannot run on this machine at all (Netty's io_uring
 * transport where the kernel or a seccomp filter refuses io_uring): not a failure of a pass, but
 * a cell that can have no figure here. The lab marks the server's cells not applicable with
 * {@link #reason()} and starts it no more.
 */
final class ServerUnavailableException extends IOException {
    private final String reason;

    ServerUnavailableException(String server, String reason) {
        super(server + " cannot run here: " + reason);
        this.reason = reason;
    }

    /** Why, in the server's own words, e.g. {@code io_uring: ...}. */
    String reason() {
        return reason;
    }
}
