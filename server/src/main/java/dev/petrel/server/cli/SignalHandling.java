package dev.petrel.server.cli;

/**
 * Turns SIGTERM and SIGINT into a graceful stop that exits 0, as process managers expect of a
 * server asked to stop, SIGHUP into a reload of the certificates and of the access log file, and
 * SIGUSR1 into a reopening of the access log. Uses {@code sun.misc.Signal} (module jdk.unsupported), the only JDK API
 * for this; without it the caller falls back to a shutdown hook.
 */
final class SignalHandling {
    private SignalHandling() {}

    /** Runs {@code action} on SIGTERM or SIGINT; returns false when signals cannot be handled here. */
    static boolean onTermination(Runnable action) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("TERM"), signal -> action.run());
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), signal -> action.run());
            return true;
        } catch (IllegalArgumentException | LinkageError e) {
            return false;
        }
    }

    /** Runs {@code action} on SIGUSR1 (nginx's "reopen your logs"); returns false when it cannot be handled. */
    static boolean onUserSignal(Runnable action) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("USR1"), signal -> action.run());
            return true;
        } catch (IllegalArgumentException | LinkageError e) {
            return false; // the JVM keeps SIGUSR1 for itself on some platforms
        }
    }

    /**
     * Runs {@code action} on SIGHUP (the usual "reload your files" signal); returns false when it
     * cannot be handled, among others when the process was started with SIGHUP ignored (as
     * {@code nohup} does): the JVM then installs no handler and says so by returning SIG_IGN.
     */
    static boolean onHangup(Runnable action) {
        try {
            sun.misc.SignalHandler previous = sun.misc.Signal.handle(new sun.misc.Signal("HUP"), signal -> action.run());
            return previous != sun.misc.SignalHandler.SIG_IGN;
        } catch (IllegalArgumentException | LinkageError e) {
            return false;
        }
    }
}
