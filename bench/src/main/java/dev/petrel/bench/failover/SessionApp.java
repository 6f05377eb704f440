package dev.petrel.bench.failover;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The web application the failover scenario runs on each Tomcat: marked {@code <distributable/>}
 * so that the cluster replicates its sessions, with three JSP pages (Jasper compiles them on the
 * first request, so nothing is built for it):
 * <ul>
 *   <li>{@code /cluster/login.jsp?user=NAME}: puts {@code NAME} in the session (a log-in, as far as a
 *       balancer can tell) and answers {@code user=NAME route=p1};</li>
 *   <li>{@code /cluster/whoami.jsp}: answers {@code user=NAME route=p2} from the request's session, or
 *       {@code user=none} without one; never creates a session; {@code ?sleep=MS} (up to 5000) answers
 *       that late, to have a request in flight when a backend stops;</li>
 *   <li>{@code /cluster/ping.jsp}: stateless, {@code route=p1}; the health check's page.</li>
 * </ul>
 * The route is the Tomcat's {@code jvmRoute}, which {@link TomcatNode} also sets as the system
 * property of that name.
 */
final class SessionApp {
    static final String CONTEXT = "/cluster";
    static final String LOGIN = CONTEXT + "/login.jsp";
    static final String WHOAMI = CONTEXT + "/whoami.jsp";
    static final String PING = CONTEXT + "/ping.jsp";

    private SessionApp() {}

    /** Writes the application into {@code webapps/cluster}. */
    static void install(Path webapps) throws IOException {
        Path app = webapps.resolve("cluster");
        Files.createDirectories(app.resolve("WEB-INF"));
        Files.writeString(app.resolve("WEB-INF/web.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee"
                         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                         xsi:schemaLocation="https://jakarta.ee/xml/ns/jakartaee https://jakarta.ee/xml/ns/jakartaee/web-app_6_1.xsd"
                         version="6.1" metadata-complete="true">
                  <distributable/>
                </web-app>
                """);
        String page = "<%@ page contentType=\"text/plain; charset=UTF-8\" trimDirectiveWhitespaces=\"true\"";
        Files.writeString(app.resolve("login.jsp"), page + " %>\n" + """
                <%
                  String user = request.getParameter("user");
                  if (user == null || !user.matches("[a-z0-9]{1,32}")) { response.sendError(400, "user=[a-z0-9]{1,32}"); return; }
                  session.setAttribute("user", user);
                %>
                user=<%= session.getAttribute("user") %> route=<%= System.getProperty("jvmRoute") %>
                """);
        Files.writeString(app.resolve("whoami.jsp"), page + " session=\"false\" %>\n" + """
                <%
                  String sleep = request.getParameter("sleep");
                  if (sleep != null && sleep.matches("[0-9]{1,4}")) Thread.sleep(Math.min(5000, Integer.parseInt(sleep)));
                  jakarta.servlet.http.HttpSession s = request.getSession(false);
                  Object user = s == null ? null : s.getAttribute("user");
                %>
                user=<%= user == null ? "none" : user %> route=<%= System.getProperty("jvmRoute") %>
                """);
        Files.writeString(app.resolve("ping.jsp"), page + " session=\"false\" %>\n"
                + "route=<%= System.getProperty(\"jvmRoute\") %>\n");
    }
}
