package dev.petrel.bench.failover;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;

/** A balancer the failover scenario sends its load through: httpd with mod_jk, or HAProxy. */
interface FrontEnd extends AutoCloseable {
    /** {@code jk} or {@code haproxy}: the first word of the scenario's case names. */
    String name();

    /** A URI on the front end. */
    URI uri(String path);

    /** Requests the balancer has sent to another backend after a failure so far (a running count). */
    long retried() throws IOException;

    /** Returns once the balancer sends new work to {@code route} again, or after {@code timeout}; whether it does. */
    boolean awaitInUse(String route, Duration timeout) throws IOException, InterruptedException;

    /** What the balancer says of its backends now, for a failed check's message. */
    String diagnostics();

    @Override
    void close();
}
