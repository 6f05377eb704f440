package dev.petrel.testkit;

/**
 * A front end (HAProxy, nginx) a test started in front of a backend on loopback: where it
 * listens, its pid, what it printed, and stopping it. Closing it stops the process (SIGTERM,
 * SIGKILL to it and its children after 5 s) and removes its private folder.
 */
public abstract sealed class LoopbackFrontEnd implements AutoCloseable permits Haproxy, Nginx {
    private final LoopbackDaemon daemon;

    LoopbackFrontEnd(LoopbackDaemon daemon) {
        this.daemon = daemon;
    }

    /** The port the front end listens on, on loopback. */
    public final int port() {
        return daemon.port();
    }

    /** The front end's (main) process id. */
    public final long pid() {
        return daemon.pid();
    }

    /** What the front end printed so far (its log goes to its standard error in the foreground). */
    public final String output() {
        return daemon.output();
    }

    /** Stops the front end and removes its folder. */
    @Override
    public final void close() {
        daemon.close();
    }
}
