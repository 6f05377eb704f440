package dev.petrel.tomcat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.ObjectName;
import org.apache.coyote.RequestGroupInfo;
import org.apache.coyote.RequestInfo;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;
import org.apache.tomcat.util.modeler.Registry;

/**
 * The connector's request statistics in JMX, where Tomcat's own connectors publish theirs and its
 * tools look: {@code <domain>:type=GlobalRequestProcessor,name="<connector>"} (request and error
 * counts, processing and maximum time, bytes) and a {@code type=RequestProcessor} bean per
 * processor (the request it serves now, for the manager's status page). Catalina counts each
 * request into its processor's {@link RequestInfo}; this sums them and registers the beans.
 */
final class RequestStatistics {
    private static final Log LOG = LogFactory.getLog(RequestStatistics.class);

    private final RequestGroupInfo global = new RequestGroupInfo();
    private final List<ObjectName> registered = new CopyOnWriteArrayList<>();
    private final AtomicInteger processors = new AtomicInteger();
    private volatile String domain;
    private volatile String worker;

    /**
     * Registers the global bean in {@code domain} (the connector's: Catalina's service), or
     * nothing when there is none (JMX turned off, as Spring Boot does by default). A connector
     * started again is registered again, under the name it has then.
     */
    void register(String domain, String connectorName) {
        unregister();
        this.domain = domain;
        this.worker = ObjectName.quote(connectorName);
        if (domain == null) return;
        register(global, domain + ":type=GlobalRequestProcessor,name=" + worker);
    }

    /** Counts a new processor's requests into the connector's, and publishes what it serves. */
    void add(RequestInfo processor) {
        processor.setGlobalProcessor(global);
        String d = domain;
        if (d != null) {
            register(processor, d + ":type=RequestProcessor,worker=" + worker + ",name=PetrelRequest" + processors.incrementAndGet());
        }
    }

    /** Takes every bean of this connector out of JMX. */
    void unregister() {
        for (ObjectName name : registered) Registry.getRegistry(null).unregisterComponent(name);
        registered.clear();
    }

    RequestGroupInfo global() {
        return global;
    }

    private void register(Object bean, String name) {
        try {
            ObjectName objectName = new ObjectName(name);
            Registry.getRegistry(null).registerComponent(bean, objectName, null);
            registered.add(objectName);
        } catch (Exception e) {
            LOG.warn("Petrel connector: could not register " + name + " in JMX", e);
        }
    }
}
