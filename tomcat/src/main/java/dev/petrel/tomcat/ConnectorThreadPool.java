package dev.petrel.tomcat;

import dev.petrel.server.config.TransportKind;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.ObjectName;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;
import org.apache.tomcat.util.modeler.Registry;

/**
 * The connector's threads as Tomcat's connectors show theirs in JMX, under
 * {@code <domain>:type=ThreadPool,name="petrel-http-8080"}, where Micrometer's Tomcat binder
 * (Actuator's {@code tomcat.threads.*} and {@code tomcat.connections.*}) and Tomcat's dashboards
 * read them. Registered only when Tomcat's JMX registry is on (Spring Boot:
 * {@code server.tomcat.mbeanregistry.enabled=true}), as Tomcat's own bean is.
 *
 * <p>Petrel has no pool of request threads to size: each exchange runs on its transport's thread
 * (a virtual thread per exchange on {@code nio}, the connection's thread on {@code blocking} and
 * {@code virtual}), and an async dispatch on the connector's executor. So the figures are what
 * Petrel really has:
 *
 * <table>
 *   <caption>Attributes</caption>
 *   <tr><th>Attribute</th><th>Figure</th></tr>
 *   <tr><td>{@code currentThreadsBusy}</td><td>threads running an exchange in Catalina now: handlers and async dispatches</td></tr>
 *   <tr><td>{@code currentThreadCount}</td><td>threads serving this connector now: on {@code nio} the busy ones (the
 *       selector loops aside), on {@code blocking} and {@code virtual} one per open connection plus running async dispatches</td></tr>
 *   <tr><td>{@code maxThreads}</td><td>the most exchanges served at once: one per connection, so {@code maxConnections}</td></tr>
 *   <tr><td>{@code connectionCount}, {@code maxConnections}</td><td>connections open now, and the limit</td></tr>
 *   <tr><td>{@code keepAliveCount}</td><td>open connections with no exchange in Catalina: waiting for a request, or reading its head</td></tr>
 * </table>
 *
 * <p>Figures are read live without a lock, so two read one after the other may be from slightly
 * different moments.
 */
public final class ConnectorThreadPool {
    private static final Log LOG = LogFactory.getLog(ConnectorThreadPool.class);

    private final PetrelProtocol protocol;
    private final AtomicInteger handlersBusy = new AtomicInteger();
    private final AtomicInteger dispatchesBusy = new AtomicInteger();
    private volatile ObjectName registered;

    ConnectorThreadPool(PetrelProtocol protocol) {
        this.protocol = protocol;
    }

    /** Threads running an exchange in Catalina now: Petrel's handlers, and async dispatches on the executor. */
    public int getCurrentThreadsBusy() {
        return handlersBusy.get() + dispatchesBusy.get();
    }

    /** Threads serving this connector's connections and exchanges now (see the table above). */
    public int getCurrentThreadCount() {
        int perConnection = protocol.transportKind() == TransportKind.NIO ? handlersBusy.get() : protocol.liveConnections();
        return perConnection + dispatchesBusy.get();
    }

    /** The most exchanges served at once: one per connection, so the connector's {@code maxConnections}. */
    public int getMaxThreads() {
        return protocol.getMaxConnections();
    }

    /** Connections open now. */
    public long getConnectionCount() {
        return protocol.liveConnections();
    }

    /** The connector's connection limit. */
    public int getMaxConnections() {
        return protocol.getMaxConnections();
    }

    /** Open connections with no exchange in Catalina now. */
    public int getKeepAliveCount() {
        return Math.max(0, protocol.liveConnections() - handlersBusy.get());
    }

    /** The connector's name, as in the bean's {@code name} key. */
    public String getName() {
        return protocol.getName();
    }

    /** Counts the calling thread busy until {@link #handlerEnded()}. */
    void handlerBegan() {
        handlersBusy.incrementAndGet();
    }

    /** The thread that called {@link #handlerBegan()} is done with its exchange. */
    void handlerEnded() {
        handlersBusy.decrementAndGet();
    }

    /** {@code task}, counted busy while it runs on the executor. */
    Runnable counted(Runnable task) {
        return () -> {
            dispatchesBusy.incrementAndGet();
            try {
                task.run();
            } finally {
                dispatchesBusy.decrementAndGet();
            }
        };
    }

    /**
     * Registers this bean in {@code domain} (Catalina's service), or nothing without one (JMX turned
     * off). A connector started again is registered again, under the name it has then.
     */
    void register(String domain, String connectorName) {
        unregister();
        if (domain == null) return;
        String name = domain + ":type=ThreadPool,name=" + ObjectName.quote(connectorName);
        try {
            ObjectName objectName = new ObjectName(name);
            Registry.getRegistry(null).registerComponent(this, objectName, null);
            registered = objectName;
        } catch (Exception e) {
            LOG.warn("Petrel connector: could not register " + name + " in JMX", e);
        }
    }

    /** Takes the bean out of JMX. */
    void unregister() {
        ObjectName name = registered;
        if (name == null) return;
        Registry.getRegistry(null).unregisterComponent(name);
        registered = null;
    }
}
