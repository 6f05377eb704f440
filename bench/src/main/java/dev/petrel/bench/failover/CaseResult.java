package dev.petrel.bench.failover;

import java.util.List;

/**
 * What one case of the failover scenario saw.
 *
 * @param name           e.g. {@code jk-kill}: front end, then event
 * @param requests       requests the load sent
 * @param failed         of those, answered with another status than 200, not at all, or (a session's) without its user
 * @param retried        requests the balancer gave to another backend after a failure, by its own count
 * @param eventP99Millis the 99th percentile latency of the requests sent during the event (stop or kill to
 *                       the backend's return)
 * @param eventMaxMillis the longest of them
 * @param eventRequests  how many requests were sent during the event
 * @param sessionsKept   users still logged in after the case
 * @param sessionsTotal  users logged in before the event
 * @param lossless       whether the case must lose nothing (a graceful stop, a rolling restart)
 * @param checks         what else was checked, each as "what: result", and whether it held
 * @param slowest        the slowest few requests of the event: when each was sent and who answered
 * @param failures       the first few failed requests, for the report
 */
record CaseResult(String name, int requests, int failed, long retried, double eventP99Millis, double eventMaxMillis, int eventRequests,
                  int sessionsKept, int sessionsTotal, boolean lossless, List<Check> checks, List<String> slowest,
                  List<String> failures) {

    /** A named check and whether it held. */
    record Check(String text, boolean held) {}

    /** Whether the case kept its promises: every check held, every session kept, and nothing failed when it must not. */
    boolean passed() {
        return sessionsKept == sessionsTotal && (!lossless || failed == 0) && checks.stream().allMatch(Check::held);
    }

    /** The summary line the issue asks for. */
    String line() {
        return "failover " + name + ": " + requests + " requests, " + failed + " failed, " + sessionsKept + "/" + sessionsTotal
                + " sessions kept";
    }

    /** The details under the line. */
    List<String> details() {
        List<String> lines = new java.util.ArrayList<>();
        lines.add("  retried by the balancer " + retried + "; p99 " + String.format(java.util.Locale.ROOT, "%.1f", eventP99Millis)
                + " ms, max " + String.format(java.util.Locale.ROOT, "%.1f", eventMaxMillis) + " ms over the " + eventRequests
                + " requests sent during the event" + (lossless ? "; must lose nothing" : ""));
        for (Check c : checks) lines.add("  " + (c.held() ? "ok   " : "FAIL ") + c.text());
        for (String s : slowest) lines.add("  slow " + s);
        for (String f : failures) lines.add("  failed: " + f);
        return lines;
    }
}
