package dev.petrel.bench.failover;

import dev.petrel.testkit.TomcatDistribution;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One backend of the failover scenario: a Tomcat distribution with Petrel's connectors (HTTP for
 * direct checks, HTTP with the PROXY protocol for HAProxy, AJP for httpd), a {@code jvmRoute}, the
 * {@link SessionApp} and a {@code <Cluster>} that replicates its sessions to the other nodes.
 * Its {@code CATALINA_BASE} outlives a stop or a kill, so it can be started again as it was.
 *
 * <p>Session replication is Tomcat's own: {@code SimpleTcpCluster} with {@code DeltaManager}, each
 * change sent to every other node at the end of its request and acknowledged before the response
 * goes out ({@code channelSendOptions="6"}: with acknowledgement, synchronously), so a backend
 * killed right after answering loses no session it has answered for. Membership is static (the
 * nodes' loopback ports listed), since multicast is not there on every machine;
 * {@code JvmRouteBinderValve} re-tags a session that failed over with its new node's route.
 */
final class TomcatNode implements Backend {
    private final String route;
    private final int httpPort;
    private final int proxyPort;
    private final int ajpPort;
    private final Path home;
    private final Path base;
    private TomcatDistribution tomcat;

    private TomcatNode(Path home, String route, int httpPort, int proxyPort, int ajpPort, Path base) {
        this.home = home;
        this.route = route;
        this.httpPort = httpPort;
        this.proxyPort = proxyPort;
        this.ajpPort = ajpPort;
        this.base = base;
    }

    /** Makes one base per route under {@code dir}, all members of one cluster; starts none. */
    static List<TomcatNode> cluster(Path home, Path dir, List<String> routes) throws IOException {
        List<Integer> tribesPorts = new ArrayList<>();
        for (int i = 0; i < routes.size(); i++) tribesPorts.add(TomcatDistribution.freePort());
        List<TomcatNode> nodes = new ArrayList<>();
        for (int i = 0; i < routes.size(); i++) {
            String route = routes.get(i);
            TomcatNode node = new TomcatNode(home, route, TomcatDistribution.freePort(), TomcatDistribution.freePort(),
                    TomcatDistribution.freePort(), dir.resolve(route));
            Files.createDirectories(node.base);
            TomcatDistribution.prepareBase(home, node.base, node.connectors(), List.of(), List.of(), route,
                    clusterXml(tribesPorts.get(i), tribesPorts));
            SessionApp.install(node.base.resolve("webapps"));
            nodes.add(node);
        }
        return nodes;
    }

    private String connectors() {
        return """
                <Connector port="%d" address="127.0.0.1" protocol="dev.petrel.tomcat.PetrelHttp11Protocol"/>
                <Connector port="%d" address="127.0.0.1" protocol="dev.petrel.tomcat.PetrelHttp11Protocol"
                           proxyProtocol="true" trustedProxies="127.0.0.1/32"/>
                <Connector port="%d" address="127.0.0.1" protocol="dev.petrel.tomcat.PetrelAjpProtocol" secretRequired="false"/>
                """.formatted(httpPort, proxyPort, ajpPort);
    }

    /** The same member list on every node; each finds itself in it by its receiver's port. */
    private static String clusterXml(int receiverPort, List<Integer> tribesPorts) {
        StringBuilder members = new StringBuilder();
        for (int i = 0; i < tribesPorts.size(); i++) {
            members.append("      <Member className=\"org.apache.catalina.tribes.membership.StaticMember\" host=\"127.0.0.1\" port=\"")
                    .append(tribesPorts.get(i)).append("\" uniqueId=\"{0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,").append(i + 1)
                    .append("}\"/>\n");
        }
        return """
                <Cluster className="org.apache.catalina.ha.tcp.SimpleTcpCluster" channelSendOptions="6">
                  <Manager className="org.apache.catalina.ha.session.DeltaManager"
                           expireSessionsOnShutdown="false" notifyListenersOnReplication="true" stateTransferTimeout="30"/>
                  <Channel className="org.apache.catalina.tribes.group.GroupChannel">
                    <Membership className="org.apache.catalina.tribes.membership.StaticMembershipService"
                                connectTimeout="500" expirationTime="3000" pingInterval="500">
                %s    </Membership>
                    <Receiver className="org.apache.catalina.tribes.transport.nio.NioReceiver"
                              address="127.0.0.1" port="%d" autoBind="0" selectorTimeout="100" maxThreads="6"/>
                    <Sender className="org.apache.catalina.tribes.transport.ReplicationTransmitter">
                      <Transport className="org.apache.catalina.tribes.transport.nio.PooledParallelSender" timeout="5000"/>
                    </Sender>
                    <Interceptor className="org.apache.catalina.tribes.group.interceptors.TcpFailureDetector"/>
                    <Interceptor className="org.apache.catalina.tribes.group.interceptors.MessageDispatchInterceptor"/>
                  </Channel>
                  <Valve className="org.apache.catalina.ha.tcp.ReplicationValve" filter=""/>
                  <Valve className="org.apache.catalina.ha.session.JvmRouteBinderValve"/>
                  <ClusterListener className="org.apache.catalina.ha.session.ClusterSessionListener"/>
                </Cluster>
                """.formatted(members, receiverPort);
    }

    @Override
    public String route() {
        return route;
    }

    int httpPort() {
        return httpPort;
    }

    @Override
    public int proxyPort() {
        return proxyPort;
    }

    @Override
    public int ajpPort() {
        return ajpPort;
    }

    /** Starts Tomcat and waits until it answers (its applications, and their replicated sessions, are then there). */
    @Override
    public void start() throws IOException, InterruptedException {
        if (tomcat != null && tomcat.isAlive()) throw new IllegalStateException(route + " runs already");
        tomcat = TomcatDistribution.run(home, base, httpPort, "-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -DjvmRoute=" + route);
    }

    /** SIGTERM, as an operator's stop; returns once the JVM has exited. */
    @Override
    public void stop() {
        if (tomcat != null) tomcat.stop();
    }

    /** SIGKILL, a crash; returns once the JVM is gone. */
    @Override
    public void kill() {
        if (tomcat != null) tomcat.kill();
    }

    /** What Tomcat logged to its console, for a failure's message. */
    String console() {
        return tomcat == null ? "" : tomcat.console();
    }

    @Override
    public String toString() {
        return route + " (http " + httpPort + ", proxy " + proxyPort + ", ajp " + ajpPort + ")";
    }
}
