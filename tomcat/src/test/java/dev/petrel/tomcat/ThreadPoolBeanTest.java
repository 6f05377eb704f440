package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The connector's {@code ThreadPool} bean, where Micrometer's Tomcat binder reads
 * {@code tomcat.threads.*}: it is registered as Tomcat's connectors register theirs, its busy count
 * is the requests in the servlet at that moment, its limits are the connector's, and it is gone
 * once the connector is destroyed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ThreadPoolBeanTest {
    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void countsTheRequestsInTheServletAsBusyThreads(String transport) throws Exception {
        CountDownLatch inServlet = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        Connector connector = new Connector(new PetrelHttp11Protocol());
        connector.setProperty("transport", transport);
        connector.setProperty("maxConnections", "77");
        ObjectName pool;
        try (EmbeddedTomcat tomcat = EmbeddedTomcat.create(connector).servlet("/wait", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
                inServlet.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                res.getWriter().print("done");
            }
        }).start()) {
            pool = new ObjectName("Tomcat:type=ThreadPool,name=\"petrel-http-" + tomcat.port() + "\"");
            assertThat(JMX.isRegistered(pool)).as(JMX.queryNames(new ObjectName("*:type=ThreadPool,*"), null).toString()).isTrue();
            assertThat(JMX.getAttribute(pool, "currentThreadsBusy")).isEqualTo(0);
            assertThat(JMX.getAttribute(pool, "maxThreads")).isEqualTo(77);
            assertThat(JMX.getAttribute(pool, "maxConnections")).isEqualTo(77);

            HttpRequest wait = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + tomcat.port() + "/wait")).build();
            // two clients, so two connections
            CompletableFuture<HttpResponse<String>> first = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().sendAsync(wait, HttpResponse.BodyHandlers.ofString());
            CompletableFuture<HttpResponse<String>> second = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().sendAsync(wait, HttpResponse.BodyHandlers.ofString());
            assertThat(inServlet.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(JMX.getAttribute(pool, "currentThreadsBusy")).isEqualTo(2);
            assertThat((int) JMX.getAttribute(pool, "currentThreadCount")).isGreaterThanOrEqualTo(2);
            assertThat((long) JMX.getAttribute(pool, "connectionCount")).isGreaterThanOrEqualTo(2);

            release.countDown();
            assertThat(first.get(10, TimeUnit.SECONDS).body()).isEqualTo("done");
            assertThat(second.get(10, TimeUnit.SECONDS).body()).isEqualTo("done");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            // the handler's thread leaves after the client has its response
            while ((int) JMX.getAttribute(pool, "currentThreadsBusy") > 0 && System.nanoTime() < deadline) Thread.sleep(20);
            assertThat(JMX.getAttribute(pool, "currentThreadsBusy")).isEqualTo(0);
        }
        assertThat(JMX.isRegistered(pool)).as("unregistered with the connector").isFalse();
    }
}
