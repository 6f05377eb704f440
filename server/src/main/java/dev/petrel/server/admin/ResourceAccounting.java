package dev.petrel.server.admin;

import dev.petrel.server.Handler;
import dev.petrel.server.Request;
import dev.petrel.server.Response;
import dev.petrel.server.engine.connection.ResourceCounters;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What this JVM's Petrel servers hold of their pooled buffers and exchange parts, TLS engines and
 * contexts, and WebSocket deflate contexts, for leak checks: counted when the JVM runs with {@code -Dpetrel.resourceAccounting=true}, and all
 * back at zero once every server has stopped. The test suite runs with it and checks that after
 * each test; the lab's soak reads it from the admin listener while it runs.
 *
 * <p>As a {@link Handler}, it answers JSON, for example
 * {@code {"accounting":true,"outstanding":{"listeners":2,"response buffers":0,...},"taken":{...}}};
 * {@code ./petrel serve --admin-port 9090} mounts it at {@code /resources}. Without the flag it
 * answers {@code {"accounting":false}}.
 */
public final class ResourceAccounting implements Handler {
    /** A handler that reports the counts. */
    public ResourceAccounting() {}

    /** Whether this JVM counts ({@code -Dpetrel.resourceAccounting=true}). */
    public static boolean enabled() {
        return ResourceCounters.ON;
    }

    /** Each resource's count taken and not given back, by its name; all zero unless {@link #enabled()}. */
    public static Map<String, Long> outstanding() {
        Map<String, Long> named = new LinkedHashMap<>();
        ResourceCounters.outstanding().forEach((resource, count) -> named.put(resource.label(), count));
        return named;
    }

    /** How many listeners this JVM has bound in all, so that a check can tell whether a server ran since it last looked. */
    public static long listenersOpened() {
        return ResourceCounters.taken(ResourceCounters.Resource.LISTENERS);
    }

    @Override
    public void handle(Request request, Response response) throws IOException {
        StringBuilder json = new StringBuilder("{\"accounting\":").append(enabled());
        if (enabled()) {
            json.append(",\"outstanding\":{");
            appendCounts(json, true);
            json.append("},\"taken\":{");
            appendCounts(json, false);
            json.append('}');
        }
        json.append("}\n");
        response.status(200).header("Content-Type", "application/json").header("Cache-Control", "no-store").send(json.toString());
    }

    private static void appendCounts(StringBuilder json, boolean outstanding) {
        boolean first = true;
        for (ResourceCounters.Resource resource : ResourceCounters.Resource.values()) {
            if (!first) json.append(',');
            first = false;
            long count = outstanding ? ResourceCounters.outstanding(resource) : ResourceCounters.taken(resource);
            json.append('"').append(resource.label()).append("\":").append(count);
        }
    }
}
