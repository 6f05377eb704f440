package dev.petrel.bench.lab;

import java.time.Duration;

/**
 * Round figures for estimating how long a scenario takes before any of it ran
 * ({@link Scenario#stepEstimate()}): how long a server takes to start and answer, and the rates at
 * which the load tools get through a fixed number of requests. Taken from the published runs on a
 * 2-CPU machine, rounded down to the slower servers' side: an estimate that errs, errs long. Once a
 * step of a scenario has finished, the progress lines use the measured time instead ({@link TimeLeft}).
 */
final class NominalTimes {
    /** A HelloWorld server from launch to its first 200, plus the half second the lab waits after stopping it. */
    static final Duration HELLO_START = Duration.ofSeconds(3);
    /** The Spring Boot application, as a jar or a war in Tomcat, to its first 200, plus the same wait. */
    static final Duration APPLICATION_START = Duration.ofSeconds(10);
    /** ab over one keep-alive connection (the latency scenario): 15,000 to 45,000 requests/s measured. */
    static final double ONE_CONNECTION_PER_SECOND = 15_000;
    /** ab -c 100 with keep-alive, over HTTP: 15,000 to 130,000 measured. */
    static final double KEEP_ALIVE_PER_SECOND = 15_000;
    /** ab -c 100 without keep-alive, over HTTP: 9,000 to 18,000 measured. */
    static final double NEW_CONNECTION_PER_SECOND = 9_000;
    /** ab -c 100 with keep-alive, over HTTPS: 10,000 to 40,000 measured. */
    static final double TLS_KEEP_ALIVE_PER_SECOND = 10_000;
    /** ab -c 100 without keep-alive, over HTTPS: a full handshake each, 420 to 600 measured. */
    static final double TLS_HANDSHAKES_PER_SECOND = 400;
    /** h2load's users, 50 requests each on a keep-alive connection: 40,000 to 80,000 measured at 9000 users. */
    static final double RAMP_PER_SECOND = 30_000;
    /** The idle client opening connections, each answered once, at most 50 in flight. */
    static final double IDLE_OPENS_PER_SECOND = 2_000;
    /** A {@code jcmd} full GC and heap reading of a 512 MiB server. */
    static final Duration HEAP_READING = Duration.ofSeconds(2);
    /** A private Apache httpd of the ajp scenario, from start to its first answer. */
    static final Duration HTTPD_START = Duration.ofSeconds(2);

    private NominalTimes() {}

    /** How long {@code count} requests take at {@code perSecond}. */
    static Duration requests(long count, double perSecond) {
        return Duration.ofMillis(Math.round(count * 1000 / perSecond));
    }
}
