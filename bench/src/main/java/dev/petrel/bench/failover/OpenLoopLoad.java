package dev.petrel.bench.failover;

import dev.petrel.bench.support.OpenLoopPacer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Steady, open-loop GETs through a front end: one every {@code 1/rate} seconds whatever the answers
 * take (a slow or failing backend does not slow the sending down, as real users do not wait for
 * each other), each on a virtual thread. Every other request is the stateless ping page, the
 * others ask {@link SessionApp}'s whoami page with one of the users' cookies, in turn, and must get
 * that user back. Bounded: it stops by itself after {@code maxDuration}.
 */
final class OpenLoopLoad {
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    /** What happened to one request; {@code sent} and {@code latency} in nanoseconds, sent on {@link System#nanoTime()}. */
    record Outcome(long sent, long latency, boolean ok, boolean sessionLost, UserSession session, String route, String failure) {}

    private final HttpClient client;
    private final FrontEnd frontEnd;
    private final int rate;
    private final String statelessPath;
    private final List<UserSession> sessions;
    private final Duration maxDuration;
    private final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor();
    private Thread pacer;

    OpenLoopLoad(HttpClient client, FrontEnd frontEnd, int rate, String statelessPath, List<UserSession> sessions,
            Duration maxDuration) {
        this.client = client;
        this.frontEnd = frontEnd;
        this.rate = rate;
        this.statelessPath = statelessPath;
        this.sessions = List.copyOf(sessions);
        this.maxDuration = maxDuration;
    }

    void start() {
        pacer = Thread.ofPlatform().name("failover-pacer").daemon().start(this::pace);
    }

    private void pace() {
        OpenLoopPacer.pace(rate, maxDuration, running::get, n -> senders.execute(() -> send(n)));
    }

    private void send(long n) {
        UserSession session = n % 2 == 1 && !sessions.isEmpty() ? sessions.get((int) (n / 2 % sessions.size())) : null;
        Outcome outcome = exchange(client, frontEnd.uri(session == null ? statelessPath : SessionApp.WHOAMI), session, false);
        if (outcome != null) outcomes.add(outcome);
    }

    /**
     * One GET (or an empty POST) of {@code uri}, with {@code session}'s cookies when there is one
     * (whose user the answer must then show); null when interrupted.
     */
    static Outcome exchange(HttpClient client, URI uri, UserSession session, boolean post) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT);
        if (post) request.POST(HttpRequest.BodyPublishers.noBody());
        String cookie = session == null ? null : session.cookieHeader();
        if (cookie != null) request.header("Cookie", cookie);
        long sent = System.nanoTime();
        try {
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            long latency = System.nanoTime() - sent;
            String body = response.body();
            if (session != null) session.update(response);
            if (response.statusCode() != 200) {
                return new Outcome(sent, latency, false, false, session, null, "status " + response.statusCode());
            } else if (session != null && !session.recognisedIn(body)) {
                return new Outcome(sent, latency, false, true, session, UserSession.routeOf(body),
                        "session of " + session.user() + " not recognised: " + body.strip());
            }
            return new Outcome(sent, latency, true, false, session, UserSession.routeOf(body), null);
        } catch (IOException e) {
            return new Outcome(sent, System.nanoTime() - sent, false, false, session, null, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Stops sending, waits for the answers still due (at most the request timeout) and returns every outcome. */
    List<Outcome> stop() throws InterruptedException {
        running.set(false);
        if (pacer != null) pacer.join();
        senders.shutdown();
        senders.awaitTermination(REQUEST_TIMEOUT.toSeconds() + 2, TimeUnit.SECONDS);
        return new ArrayList<>(outcomes);
    }
}
