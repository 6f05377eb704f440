package dev.petrel.bench.failover;

import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One logged-in user of the failover scenario, as a browser holds it: a name, and the cookies the
 * front end and the backend set (Tomcat's {@code JSESSIONID}, HAProxy's sticky cookie), updated
 * from every answer (a session that failed over comes back with its new route in its id).
 */
final class UserSession {
    private final String user;
    private final Map<String, String> cookies = new LinkedHashMap<>();
    private String loginRoute;

    UserSession(String user) {
        this.user = user;
    }

    String user() {
        return user;
    }

    /** The {@code Cookie} header to send, or null when there is no cookie yet. */
    synchronized String cookieHeader() {
        if (cookies.isEmpty()) return null;
        StringBuilder header = new StringBuilder();
        cookies.forEach((name, value) -> header.append(header.isEmpty() ? "" : "; ").append(name).append('=').append(value));
        return header.toString();
    }

    /** Takes the answer's {@code Set-Cookie} headers. */
    void update(HttpResponse<?> response) {
        update(response.headers().allValues("set-cookie"));
    }

    /** Takes {@code Set-Cookie} header values: name and value; the attributes do not matter here. */
    synchronized void update(List<String> setCookies) {
        for (String setCookie : setCookies) {
            int end = setCookie.indexOf(';');
            String pair = end < 0 ? setCookie : setCookie.substring(0, end);
            int eq = pair.indexOf('=');
            if (eq > 0) cookies.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
        }
    }

    synchronized void loginRoute(String route) {
        this.loginRoute = route;
    }

    /**
     * The backend the session is on now: the route its id ends with ({@code ABC.p2}, Tomcat's
     * {@code jvmRoute}, re-tagged after a failover), else the one that answered the log-in.
     */
    synchronized String currentRoute() {
        String id = cookies.get("JSESSIONID");
        int dot = id == null ? -1 : id.lastIndexOf('.');
        return dot < 0 ? loginRoute : id.substring(dot + 1);
    }

    /** The backend that answered the log-in. */
    synchronized String loginRoute() {
        return loginRoute;
    }

    /** Whether {@code body} (a whoami answer) shows this session's user. */
    boolean recognisedIn(String body) {
        return body.strip().startsWith("user=" + user + " "); // a JSP page may start with a line break
    }

    /** The {@code route=} of an answer of {@link SessionApp}, or null. */
    static String routeOf(String body) {
        int at = body.indexOf("route=");
        return at < 0 ? null : body.substring(at + 6).strip();
    }
}
