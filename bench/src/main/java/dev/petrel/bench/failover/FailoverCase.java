package dev.petrel.bench.failover;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One case of the failover scenario: users log in through a front end, steady load runs, an event
 * hits the backends (a graceful stop, a kill, a rolling restart), the load goes on until every
 * backend is back in the balancer, and then each user's session is asked for. Every wait is
 * bounded.
 */
final class FailoverCase {
    /** What happens to the backends under load. */
    enum Event {
        /** The first backend stopped by SIGTERM, then started again. */
        GRACEFUL("graceful", true),
        /** The first backend killed by SIGKILL, then started again. */
        KILL("kill", false),
        /** Each backend in turn stopped by SIGTERM and started again, the next once the balancer uses it. */
        ROLLING("rolling", true);

        final String word;
        final boolean lossless;

        Event(String word, boolean lossless) {
            this.word = word;
            this.lossless = lossless;
        }
    }

    /** How long and how hard: the quick variant proves the scenario works, the full one measures. */
    record Timing(int rate, int users, Duration before, Duration after, Duration backTimeout) {
        static Timing of(boolean quick) {
            return quick ? new Timing(200, 10, Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofSeconds(20))
                    : new Timing(500, 50, Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(30));
        }
    }

    private static final Duration LOAD_LIMIT = Duration.ofMinutes(3);
    private static final int FAILURES_SHOWN = 5;

    private final HttpClient client;
    private final FrontEnd frontEnd;
    private final List<? extends Backend> backends;
    private final String statelessPath;
    private final boolean sessions;
    private final Timing timing;

    FailoverCase(HttpClient client, FrontEnd frontEnd, List<? extends Backend> backends, String statelessPath, boolean sessions,
            Timing timing) {
        this.client = client;
        this.frontEnd = frontEnd;
        this.backends = backends;
        this.statelessPath = statelessPath;
        this.sessions = sessions;
        this.timing = timing;
    }

    CaseResult run(String name, Event event) throws IOException, InterruptedException {
        List<CaseResult.Check> checks = new ArrayList<>();
        List<UserSession> users = sessions ? logIn(name, "u", timing.users()) : List.of();
        long retriedBefore = frontEnd.retried();
        OpenLoopLoad load = new OpenLoopLoad(client, frontEnd, timing.rate(), statelessPath, users, LOAD_LIMIT);
        long eventStart;
        long eventEnd;
        List<OpenLoopLoad.Outcome> outcomes;
        try {
            load.start();
            Thread.sleep(timing.before().toMillis());
            eventStart = System.nanoTime();
            List<? extends Backend> hit = event == Event.ROLLING ? backends : backends.subList(0, 1);
            for (Backend b : hit) {
                if (event == Event.KILL) b.kill();
                else b.stop();
                b.start();
                boolean back = frontEnd.awaitInUse(b.route(), timing.backTimeout());
                checks.add(new CaseResult.Check(frontEnd.name() + " uses " + b.route() + " again after its restart"
                        + (back ? "" : " (after " + timing.backTimeout().toSeconds() + " s: " + frontEnd.diagnostics() + ")"), back));
            }
            eventEnd = System.nanoTime();
            Thread.sleep(timing.after().toMillis());
        } finally {
            outcomes = load.stop();
        }
        long retried = frontEnd.retried() - retriedBefore;
        int kept = 0;
        for (UserSession user : users) if (stillLoggedIn(user)) kept++;
        if (sessions) {
            checks.add(stickiness(outcomes, eventStart));
            if (event != Event.ROLLING) checks.add(newSessionsReach(name, backends.getFirst().route()));
        }
        return result(name, event, outcomes, eventStart, eventEnd, retried, kept, users.size(), checks);
    }

    private static CaseResult result(String name, Event event, List<OpenLoopLoad.Outcome> outcomes, long eventStart, long eventEnd,
            long retried, int kept, int total, List<CaseResult.Check> checks) {
        List<Long> eventLatencies = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        int failed = 0;
        long firstSent = outcomes.stream().mapToLong(OpenLoopLoad.Outcome::sent).min().orElse(0);
        for (OpenLoopLoad.Outcome o : outcomes) {
            if (o.sent() >= eventStart && o.sent() <= eventEnd) eventLatencies.add(o.latency());
            if (!o.ok()) {
                failed++;
                if (failures.size() < FAILURES_SHOWN) {
                    failures.add(String.format(java.util.Locale.ROOT, "at %.2f s (event at %.2f s): %s",
                            (o.sent() - firstSent) / 1e9, (eventStart - firstSent) / 1e9, o.failure()));
                }
            }
        }
        eventLatencies.sort(null);
        double p99 = eventLatencies.isEmpty() ? 0
                : eventLatencies.get((int) Math.ceil(eventLatencies.size() * 0.99) - 1) / 1e6;
        return new CaseResult(name, outcomes.size(), failed, retried, p99, eventLatencies.size(), kept, total, event.lossless,
                checks, failures);
    }

    /** Logs {@code count} users in through the front end; each must get its own name back. */
    private List<UserSession> logIn(String caseName, String prefix, int count) throws IOException, InterruptedException {
        List<UserSession> users = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            UserSession user = new UserSession(caseName.replaceAll("[^a-z0-9]", "") + prefix + i);
            HttpResponse<String> r = send(SessionApp.LOGIN + "?user=" + user.user(), user);
            if (r.statusCode() != 200 || !user.recognisedIn(r.body())) {
                throw new IOException("log-in of " + user.user() + " through " + frontEnd.name() + " answered " + r.statusCode()
                        + ": " + r.body().strip());
            }
            user.loginRoute(UserSession.routeOf(r.body()));
            users.add(user);
        }
        return users;
    }

    private boolean stillLoggedIn(UserSession user) throws IOException, InterruptedException {
        HttpResponse<String> r = send(SessionApp.WHOAMI, user);
        return r.statusCode() == 200 && user.recognisedIn(r.body());
    }

    private HttpResponse<String> send(String path, UserSession user) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(frontEnd.uri(path)).timeout(Duration.ofSeconds(10));
        String cookie = user.cookieHeader();
        if (cookie != null) request.header("Cookie", cookie);
        HttpResponse<String> r = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        user.update(r);
        return r;
    }

    /** Before the event, each user's requests were all answered by the backend that logged it in. */
    private static CaseResult.Check stickiness(List<OpenLoopLoad.Outcome> outcomes, long eventStart) {
        int asked = 0;
        int sticky = 0;
        for (OpenLoopLoad.Outcome o : outcomes) {
            if (o.session() == null || o.sent() >= eventStart || !o.ok()) continue;
            asked++;
            if (o.session().loginRoute().equals(o.route())) sticky++;
        }
        return new CaseResult.Check("sticky sessions: " + sticky + " of " + asked
                + " session requests before the event answered by the user's log-in backend", asked > 0 && sticky == asked);
    }

    /** Once the first backend is back, new users are balanced onto it again. */
    private CaseResult.Check newSessionsReach(String caseName, String route) throws IOException, InterruptedException {
        int count = Math.max(6, timing.users() / 5);
        int there = 0;
        for (UserSession user : logIn(caseName, "n", count)) if (route.equals(user.loginRoute())) there++;
        return new CaseResult.Check("new sessions after " + route + "'s return: " + there + " of " + count + " on " + route, there > 0);
    }
}
