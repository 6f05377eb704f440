package dev.petrel.bench.soak;

import dev.petrel.bench.support.OpenLoopPacer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The soak's open-loop traffic: one operation every {@code 1/rate} seconds whatever the answers
 * take (a slow server does not slow the sending down, as real users do not wait for each other),
 * each on a virtual thread, on a route and of a kind drawn from a generator seeded once, so that a
 * run can be repeated. Bounded: it stops by itself after its duration.
 */
final class SoakTraffic {
    /** Operations and their weights: mostly small requests, a few big bodies both ways, a WebSocket session now and then. */
    private static final List<String> OPERATIONS = List.of("ping", "ping", "ping", "download", "download", "upload", "upload",
            "range", "gzip", "websocket");

    private final SoakClients clients;
    private final List<SoakRoute> routes;
    private final int rate;
    private final long durationNanos;
    private final SplittableRandom random;
    private final ConcurrentLinkedQueue<SoakOutcome> outcomes = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor();
    private Thread pacer;

    SoakTraffic(SoakClients clients, List<SoakRoute> routes, int rate, long durationNanos, long seed) {
        this.clients = clients;
        this.routes = List.copyOf(routes);
        this.rate = rate;
        this.durationNanos = durationNanos;
        this.random = new SplittableRandom(seed);
    }

    void start() {
        pacer = Thread.ofPlatform().name("soak-pacer").daemon().start(this::pace);
    }

    private void pace() {
        OpenLoopPacer.pace(rate, Duration.ofNanos(durationNanos), running::get, n -> {
            SoakRoute route = routes.get(random.nextInt(routes.size()));
            String drawn = OPERATIONS.get(random.nextInt(OPERATIONS.size()));
            String operation = drawn.equals("websocket") && !route.carriesWebSocket() ? "download" : drawn;
            SplittableRandom own = random.split(); // each operation draws its sizes from a generator of its own
            senders.execute(() -> {
                try {
                    outcomes.add(clients.run(route, operation, own));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        });
    }

    /** The outcomes that have come in since the last call. */
    List<SoakOutcome> drain() {
        List<SoakOutcome> out = new ArrayList<>();
        for (SoakOutcome o; (o = outcomes.poll()) != null; ) out.add(o);
        return out;
    }

    /** Stops sending and waits for the answers still due (at most the request timeout and a little). */
    void stop() throws InterruptedException {
        running.set(false);
        if (pacer != null) pacer.join();
        senders.shutdown();
        if (!senders.awaitTermination(SoakClients.TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS)) senders.shutdownNow();
    }
}
