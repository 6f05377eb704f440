package dev.petrel.bench.failover;

import java.io.IOException;

/** A backend the failover scenario stops, kills and starts again behind a front end. */
interface Backend extends AutoCloseable {
    /** Its name, and for a Tomcat its {@code jvmRoute}: {@code p1}, {@code p2}. */
    String route();

    /** Its port for HTTP with the PROXY protocol (HAProxy's side). */
    int proxyPort();

    /** Its AJP port (httpd's side). */
    int ajpPort();

    /** Starts it and returns once it serves. */
    void start() throws IOException, InterruptedException;

    /** A graceful stop (SIGTERM); returns once the process has exited. */
    void stop();

    /** SIGKILL; returns once the process is gone. */
    void kill();

    @Override
    default void close() {
        stop();
    }
}
