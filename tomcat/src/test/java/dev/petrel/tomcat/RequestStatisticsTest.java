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
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The connector's request statistics where Tomcat's tools read them: the JMX bean
 * {@code Tomcat:type=GlobalRequestProcessor,name="petrel-http-PORT"} counts requests, errors,
 * bytes and time, and a {@code RequestProcessor} bean per processor is registered beside it; all
 * are gone once the connector is destroyed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RequestStatisticsTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void requestsAndErrorsAreCountedInJmx(String transport) throws Exception {
        ObjectName global;
        try (EmbeddedTomcat tomcat = EmbeddedTomcat.create(transport).servlet("/hello", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
                res.getWriter().print("hello");
            }
        }).start()) {
            global = new ObjectName("Tomcat:type=GlobalRequestProcessor,name=\"petrel-http-" + tomcat.port() + "\"");
            assertThat(JMX.isRegistered(global)).as(JMX.queryNames(new ObjectName("*:type=GlobalRequestProcessor,*"), null).toString()).isTrue();
            for (String path : new String[] {"/hello", "/hello", "/hello", "/missing"}) {
                CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + tomcat.port() + path)).build(),
                        HttpResponse.BodyHandlers.ofString());
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            // Catalina counts a request once its response is finished, which the client may see first
            while ((int) JMX.getAttribute(global, "requestCount") < 4 && System.nanoTime() < deadline) Thread.sleep(20);
            assertThat(JMX.getAttribute(global, "requestCount")).isEqualTo(4);
            assertThat(JMX.getAttribute(global, "errorCount")).isEqualTo(1);
            assertThat((long) JMX.getAttribute(global, "bytesSent")).isGreaterThanOrEqualTo(3 * "hello".length());
            assertThat((long) JMX.getAttribute(global, "processingTime")).isGreaterThanOrEqualTo(0);
            Set<ObjectName> processors = JMX.queryNames(new ObjectName(
                    "Tomcat:type=RequestProcessor,worker=\"petrel-http-" + tomcat.port() + "\",*"), null);
            assertThat(processors).isNotEmpty();
        }
        assertThat(JMX.isRegistered(global)).as("unregistered with the connector").isFalse();
    }
}
