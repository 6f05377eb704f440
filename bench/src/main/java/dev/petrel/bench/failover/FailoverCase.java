package dev.petrel.bench.failover;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
    /** GETs sent to be in flight on a backend when it is stopped or killed (a POST too), and how long each takes. */
    private static final int IN_FLIGHT = 3;
    private static final Duration SLOW = Duration.ofMillis(1000);
    private static final int FAILURES_SHOWN = 5;
    private static final int SLOWEST_SHOWN = 3;

    private final HttpClient client;
    private final FrontEnd frontEnd;
    private final List<? extends Backend> backends;
    private final String statelessPath;
    private final boolean sessions;
    private final Timing timing;
    private final ExecutorService inFlight = Executors.newVirtualThreadPerTaskExecutor();

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
        List<OpenLoopLoad.Outcome> extra = new ArrayList<>(); // the requests sent to be in flight at the event
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
                List<Future<OpenLoopLoad.Outcome>> slow = inFlightOn(b.route(), users);
                if (event == Event.KILL) b.kill();
                else b.stop();
                if (sessions) checks.add(inFlightAnswered(b.route(), event, slow, extra));
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
        int victims = 0;
        int victimsKept = 0;
        String victim = backends.getFirst().route();
        for (UserSession user : users) {
            boolean loggedIn = stillLoggedIn(user);
            if (loggedIn) kept++;
            if (victim.equals(user.loginRoute())) {
                victims++;
                if (loggedIn) victimsKept++;
            }
        }
        if (sessions) {
            checks.add(stickiness(outcomes, eventStart));
            checks.add(new CaseResult.Check("users logged in on " + victim + " still logged in afterwards: " + victimsKept + " of "
                    + victims, victims > 0 && victimsKept == victims));
            if (event != Event.ROLLING) {
                checks.add(servedElsewhere(outcomes, victim, eventStart, eventEnd));
                checks.add(newSessionsReach(name, victim));
            }
        }
        return result(name, event, outcomes, extra, eventStart, eventEnd, retried, kept, users.size(), checks);
    }

    /**
     * The case's figures: requests and failures over the load and the requests sent to be in flight
     * ({@code extra}); latencies over the load's requests sent during the event only, since the
     * others are slow on purpose.
     */
    private static CaseResult result(String name, Event event, List<OpenLoopLoad.Outcome> load, List<OpenLoopLoad.Outcome> extra,
            long eventStart, long eventEnd, long retried, int kept, int total, List<CaseResult.Check> checks) {
        List<OpenLoopLoad.Outcome> during = new ArrayList<>();
        for (OpenLoopLoad.Outcome o : load) if (o.sent() >= eventStart && o.sent() <= eventEnd) during.add(o);
        during.sort(java.util.Comparator.comparingLong(OpenLoopLoad.Outcome::latency));
        double p99 = during.isEmpty() ? 0 : during.get((int) Math.ceil(during.size() * 0.99) - 1).latency() / 1e6;
        double max = during.isEmpty() ? 0 : during.getLast().latency() / 1e6;
        List<String> failures = new ArrayList<>();
        List<OpenLoopLoad.Outcome> all = new ArrayList<>(load);
        all.addAll(extra);
        int failed = 0;
        for (OpenLoopLoad.Outcome o : all) {
            if (o.ok()) continue;
            failed++;
            if (failures.size() < FAILURES_SHOWN) failures.add(at(o, eventStart) + ": " + o.failure());
        }
        // the slowest few of the event, where each was sent and who answered: where a tail comes from
        List<String> slowest = new ArrayList<>();
        for (OpenLoopLoad.Outcome o : during.reversed().subList(0, Math.min(SLOWEST_SHOWN, during.size()))) {
            slowest.add(String.format(java.util.Locale.ROOT, "%.1f ms, %s, answered by %s", o.latency() / 1e6, at(o, eventStart),
                    !o.ok() ? "nobody (" + o.failure() + ")" : o.route() == null ? "a backend" : o.route()));
        }
        return new CaseResult(name, all.size(), failed, retried, p99, max, during.size(), kept, total, event.lossless,
                checks, slowest, failures);
    }

    /** When {@code o} was sent, from the event's start. */
    private static String at(OpenLoopLoad.Outcome o, long eventStart) {
        return String.format(java.util.Locale.ROOT, "sent %+.3f s from the event's start", (o.sent() - eventStart) / 1e9);
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

    /**
     * Sends {@link #IN_FLIGHT} slow GETs ({@link #SLOW}) and one slow POST of users whose sessions are
     * on {@code route} (so that they go there), and returns once they have had the time to reach it:
     * requests in flight on the backend when it is stopped or killed. The POST is last in the list.
     */
    private List<Future<OpenLoopLoad.Outcome>> inFlightOn(String route, List<UserSession> users) throws InterruptedException {
        List<Future<OpenLoopLoad.Outcome>> slow = new ArrayList<>();
        List<UserSession> there = users.stream().filter(u -> route.equals(u.currentRoute())).limit(IN_FLIGHT + 1).toList();
        for (int i = 0; i < there.size(); i++) {
            UserSession user = there.get(i);
            boolean post = i == IN_FLIGHT;
            slow.add(inFlight.submit(() -> OpenLoopLoad.exchange(client,
                    frontEnd.uri(SessionApp.WHOAMI + "?sleep=" + SLOW.toMillis()), user, post)));
        }
        if (!slow.isEmpty()) Thread.sleep(SLOW.toMillis() * 2 / 5); // on a busy machine too, they have reached it
        return slow;
    }

    /**
     * What became of the requests in flight on a backend at its stop or kill (all answered by the
     * time the process has exited, or failed over): on a graceful stop, each must have been answered
     * by that backend; on a kill, each is counted as answered elsewhere (the balancer sent it again)
     * or failed. The POST is told apart: a balancer that sends it again may run it twice.
     */
    private static CaseResult.Check inFlightAnswered(String route, Event event, List<Future<OpenLoopLoad.Outcome>> slow,
            List<OpenLoopLoad.Outcome> extra) throws InterruptedException {
        int there = 0;
        int elsewhere = 0;
        int failed = 0;
        String post = "";
        for (int i = 0; i < slow.size(); i++) {
            OpenLoopLoad.Outcome o;
            try {
                o = slow.get(i).get(30, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                o = null;
            }
            if (o != null) extra.add(o);
            String fate = o == null || !o.ok() ? "failed" + (o == null ? "" : " (" + o.failure() + ")")
                    : route.equals(o.route()) ? "answered by " + route : "answered by " + o.route() + ", sent again by the balancer";
            if (i == IN_FLIGHT) {
                post = "; the POST " + fate;
                continue;
            }
            if (o == null || !o.ok()) failed++;
            else if (route.equals(o.route())) there++;
            else elsewhere++;
        }
        int gets = Math.min(slow.size(), IN_FLIGHT);
        String counts = "GETs: " + there + " answered by " + route + ", " + elsewhere + " by another backend after a retry, "
                + failed + " failed" + post;
        if (event == Event.KILL) {
            return new CaseResult.Check("requests in flight on " + route + " when it was killed: " + slow.size() + " (" + counts + ")",
                    gets == IN_FLIGHT);
        }
        boolean postAnswered = post.equals("; the POST answered by " + route);
        return new CaseResult.Check("requests in flight on " + route + " at its SIGTERM answered by it: "
                + (there + (postAnswered ? 1 : 0)) + " of " + slow.size() + " (" + counts + ")",
                slow.size() == IN_FLIGHT + 1 && there == IN_FLIGHT && postAnswered);
    }

    /** While the first backend was out, its users' requests were answered by another one. */
    private static CaseResult.Check servedElsewhere(List<OpenLoopLoad.Outcome> outcomes, String victim, long eventStart, long eventEnd) {
        int elsewhere = 0;
        for (OpenLoopLoad.Outcome o : outcomes) {
            if (o.session() != null && o.ok() && victim.equals(o.session().loginRoute()) && o.sent() >= eventStart
                    && o.sent() <= eventEnd && !victim.equals(o.route())) {
                elsewhere++;
            }
        }
        return new CaseResult.Check("requests of " + victim + "'s users answered by another backend while it was out: " + elsewhere,
                elsewhere > 0);
    }

    /** Once the first backend is back, new users are balanced onto it again. */
    private CaseResult.Check newSessionsReach(String caseName, String route) throws IOException, InterruptedException {
        int count = Math.max(6, timing.users() / 5);
        int there = 0;
        for (UserSession user : logIn(caseName, "n", count)) if (route.equals(user.loginRoute())) there++;
        return new CaseResult.Check("new sessions after " + route + "'s return: " + there + " of " + count + " on " + route, there > 0);
    }
}
