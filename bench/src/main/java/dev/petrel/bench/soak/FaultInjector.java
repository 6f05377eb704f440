package dev.petrel.bench.soak;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.random.RandomGenerator;
import javax.net.ssl.SSLSocketFactory;

/**
 * Runs the soak's faults against a running server, one at a time, and says what each did and
 * when, so that client requests failing on the same listener meanwhile are put down to the fault.
 *
 * <p>The listener each fault aims at, and its sizes, are drawn from a generator seeded with the
 * seed given (see {@link FaultDraw}): the soak prints the seed, and the same seed with the same
 * kinds in the same order replays the same faults.
 *
 * <p>Every fault is bounded: each keeps to time limits of its own (about 9 s at most against a
 * server that answers), and should one overrun all the same (a write the server never takes has
 * no timeout; a server that answers a byte every few seconds makes every read wait long), its
 * sockets are reset at {@link #BOUND} and it is given {@link #GRACE} to stop, so that
 * {@link #inject} returns within about 12 s whatever the server does, every socket closed and
 * every thread of the fault ended.
 * What the server does, resets and errors included, goes into the record's detail; only a fault's
 * own bug throws.
 */
public final class FaultInjector {
    /** The longest a fault runs before its sockets are reset. */
    static final Duration BOUND = Duration.ofSeconds(11);
    /** How long a fault has to stop once its sockets are reset. */
    static final Duration GRACE = Duration.ofSeconds(1);

    private final SoakPorts ports;
    private final List<Listener> listeners;
    private final int maxConnections;
    private final RandomGenerator random;
    private final SSLSocketFactory tls = TrustingTls.socketFactory();

    /**
     * @param ports the server's ports
     * @param maxConnections the server's connection limit, which {@link FaultKind#CONNECTION_BURST} goes over
     * @param seed seeds the generator that picks listeners and sizes
     */
    public FaultInjector(SoakPorts ports, int maxConnections, long seed) {
        if (maxConnections < 1) throw new IllegalArgumentException("maxConnections must be positive: " + maxConnections);
        this.ports = ports;
        this.listeners = Listener.of(ports);
        this.maxConnections = maxConnections;
        this.random = new SplittableRandom(seed);
    }

    /** The kinds of fault this server's ports allow, in {@link FaultKind}'s order. */
    public List<FaultKind> applicable() {
        List<FaultKind> kinds = new ArrayList<>();
        for (FaultKind kind : FaultKind.values()) {
            if (!targets(kind).isEmpty()) kinds.add(kind);
        }
        return List.copyOf(kinds);
    }

    /**
     * Runs one fault of {@code kind} against a listener it applies to, and waits until it is over.
     * One fault at a time: a second caller waits for the first.
     *
     * @throws IllegalArgumentException when {@code kind} is not {@linkplain #applicable() applicable}
     * @throws InterruptedException when interrupted; the fault's sockets are reset first
     */
    public synchronized FaultRecord inject(FaultKind kind) throws InterruptedException {
        List<Listener> targets = targets(kind);
        if (targets.isEmpty()) throw new IllegalArgumentException(kind + " does not apply to " + ports);
        Listener target = targets.get(random.nextInt(targets.size()));
        Fault fault = FaultDraw.draw(kind, target, random, maxConnections);
        Transcript transcript = new Transcript();
        AtomicReference<Throwable> bug = new AtomicReference<>();
        long start = System.nanoTime();
        try (FaultSockets sockets = new FaultSockets(tls)) {
            Thread runner = Thread.ofVirtual().name("soak-fault-" + kind).start(() -> run(fault, target, sockets, transcript, bug));
            try {
                if (!runner.join(BOUND)) {
                    transcript.note("cut at " + BOUND.toSeconds() + " s, its sockets reset (" + sockets.count() + " opened)");
                    sockets.abort();
                    runner.interrupt();
                    if (!runner.join(GRACE)) transcript.note("its thread still ran " + GRACE.toMillis() + " ms later");
                }
            } finally {
                // interrupted while waiting: the fault must not outlive the call
                sockets.abort();
                runner.interrupt();
            }
        }
        long end = System.nanoTime();
        Throwable thrown = bug.get();
        if (thrown instanceof RuntimeException e) throw e;
        if (thrown instanceof Error e) throw e;
        return new FaultRecord(kind, target.name(), start, end, transcript.text());
    }

    private static void run(Fault fault, Listener target, FaultSockets sockets, Transcript transcript, AtomicReference<Throwable> bug) {
        try {
            fault.run(target, sockets, transcript);
        } catch (IOException e) {
            // the server ended the fault early: that is what it did, not an error of the injector
            transcript.note("ended by " + Reply.describe(e));
        } catch (InterruptedException e) {
            transcript.note("interrupted");
        } catch (RuntimeException | Error e) {
            bug.set(e);
        }
    }

    private List<Listener> targets(FaultKind kind) {
        return listeners.stream().filter(kind::aimsAt).toList();
    }
}
