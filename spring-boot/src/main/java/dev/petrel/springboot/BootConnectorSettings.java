package dev.petrel.springboot;

import dev.petrel.tomcat.PetrelProtocol;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.tomcat.autoconfigure.TomcatServerProperties;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.core.env.Environment;

/**
 * Spring Boot's {@code server.tomcat.*} and {@code server.*} connector settings on Petrel's
 * connector. Boot's {@code TomcatWebServerFactoryCustomizer} hands them to the protocol only when
 * it is one of Tomcat's ({@code AbstractProtocol}, {@code AbstractHttp11Protocol}), so on Petrel's
 * they would be dropped without a word; this applies each one Petrel has, with the condition Boot
 * applies it with, and logs one warning line for each one Petrel has not, when it is set.
 *
 * <p>Settings Boot gives to Catalina's {@code Connector} itself (form post size, parameter and
 * part counts, URI encoding) or through the {@code ProtocolHandler} interface (graceful shutdown)
 * need nothing here: they reach Petrel's connector as they reach Tomcat's. The URI encoding holds
 * only in part, and is warned about when it is not UTF-8: Petrel answers 400 to a path whose
 * percent-encoding is not UTF-8 before Catalina decodes it.
 */
final class BootConnectorSettings {
    private static final Log LOG = LogFactory.getLog(BootConnectorSettings.class);

    /** A setting Petrel does not honour (or not wholly), what to say of it, and when an application has set it. */
    private record Unsupported(String property, String warning, Predicate<BootConnectorSettings> isSet) {
        /** Refused outright, and set when it is in the environment at all. */
        static Unsupported refused(String property, String why) {
            return refused(property, why, settings -> settings.environment.containsProperty(property));
        }

        static Unsupported refused(String property, String why, Predicate<BootConnectorSettings> isSet) {
            return new Unsupported(property, "is not supported and is ignored: " + why, isSet);
        }
    }

    private static final String NO_POOL = "Petrel runs each exchange on its transport's thread and has no request thread pool;"
            + " server.tomcat.max-connections bounds the exchanges served at once";

    private static final List<Unsupported> UNSUPPORTED = List.of(
            Unsupported.refused("server.tomcat.threads.max", NO_POOL),
            Unsupported.refused("server.tomcat.threads.min-spare", NO_POOL),
            Unsupported.refused("server.tomcat.threads.max-queue-capacity",
                    "Petrel queues no requests; connections beyond server.tomcat.max-connections wait in the accept backlog"
                            + " (server.tomcat.accept-count)"),
            Unsupported.refused("server.tomcat.processor-cache", "Petrel keeps every processor it made for the next exchange"),
            Unsupported.refused("server.tomcat.max-http-response-header-size", "Petrel does not limit the size of response heads"),
            Unsupported.refused("server.compression.enabled", "Petrel's Tomcat connector does not compress responses",
                    settings -> settings.server.getCompression().getEnabled()),
            new Unsupported("server.tomcat.uri-encoding", "holds only in part: Catalina decodes request paths with it,"
                    + " but Petrel answers 400 to a path whose percent-encoding is not UTF-8",
                    settings -> !StandardCharsets.UTF_8.equals(settings.tomcat.getUriEncoding())));

    private final Environment environment;
    private final ServerProperties server;
    private final TomcatServerProperties tomcat;

    BootConnectorSettings(Environment environment, ServerProperties server, TomcatServerProperties tomcat) {
        this.environment = environment;
        this.server = server;
        this.tomcat = tomcat;
    }

    /**
     * Gives {@code protocol} the settings Petrel has, under the conditions Boot's customizer gives
     * them to Tomcat's protocols (a count only when positive, a timeout only when set).
     */
    void applyTo(PetrelProtocol protocol) {
        if (tomcat.getMaxConnections() > 0) protocol.setMaxConnections(tomcat.getMaxConnections());
        if (tomcat.getAcceptCount() > 0) protocol.setAcceptCount(tomcat.getAcceptCount());
        Duration connectionTimeout = tomcat.getConnectionTimeout();
        if (connectionTimeout != null) protocol.setConnectionTimeout((int) connectionTimeout.toMillis());
        Duration keepAliveTimeout = tomcat.getKeepAliveTimeout();
        if (keepAliveTimeout != null) protocol.setKeepAliveTimeout((int) keepAliveTimeout.toMillis());
        protocol.setMaxKeepAliveRequests(tomcat.getMaxKeepAliveRequests());
        protocol.setMaxSwallowSize(tomcat.getMaxSwallowSize().toBytes());
        long headerSize = server.getMaxHttpRequestHeaderSize().toBytes();
        if (headerSize > 0) protocol.setMaxHttpRequestHeaderSize((int) headerSize);
    }

    /** Logs one warning line for each setting Petrel does not wholly honour that the application has set. */
    void warnUnsupported() {
        for (Unsupported unsupported : UNSUPPORTED) {
            if (unsupported.isSet().test(this)) {
                LOG.warn("Petrel connector: " + unsupported.property() + " " + unsupported.warning());
            }
        }
    }
}
