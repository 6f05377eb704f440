package dev.petrel.tomcat;

import dev.petrel.server.config.Http2Config;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.apache.coyote.http2.Http2Protocol;

/**
 * Tomcat's {@code <UpgradeProtocol className="org.apache.coyote.http2.Http2Protocol"/>} as
 * Petrel's own HTTP/2: the element turns it on ({@code h2} by ALPN on an HTTPS connector,
 * {@code h2c} with prior knowledge on a plain one), and its attributes that have a counterpart
 * ({@code maxConcurrentStreams}, {@code initialWindowSize}) set it.
 *
 * <p>Every other attribute the configuration changed from Tomcat's default is named in a warning:
 * Petrel's HTTP/2 idles, reads and writes by the connector's timeouts, bounds headers by its header
 * limits, and guards against floods by rates of its own ({@link Http2Config}). Which attributes
 * were changed is found by comparing each getter with a default {@link Http2Protocol}'s, so an
 * attribute a later Tomcat adds is reported too.
 */
record Http2ProtocolSettings(Http2Config config, List<String> ignored) {
    private static final Set<String> MAPPED = Set.of("maxConcurrentStreams", "initialWindowSize");
    /** Getters that are not attributes of the element. */
    private static final Set<String> NOT_ATTRIBUTES = Set.of("alpnIdentifier", "alpnName", "upgradeProtocolName", "global",
            "continueResponseTimingInternal", "http11Protocol", "class");

    static Http2ProtocolSettings of(Http2Protocol tomcat, boolean tls) {
        int streams = (int) Math.min(Integer.MAX_VALUE, Math.max(1, tomcat.getMaxConcurrentStreams()));
        int window = Math.max(1, tomcat.getInitialWindowSize());
        Http2Config config = Http2Config.DEFAULT.withClearText(!tls).withMaxConcurrentStreams(streams)
                .withWindows(window, Math.max(Http2Config.DEFAULT.connectionWindowSize(), window));
        List<String> ignored = new ArrayList<>();
        changedAttributes(tomcat).forEach((name, value) -> {
            if (!MAPPED.contains(name)) ignored.add(name + "=\"" + value + "\"");
        });
        return new Http2ProtocolSettings(config, List.copyOf(ignored));
    }

    /** The element's attributes whose value differs from a default {@link Http2Protocol}'s, by name. */
    private static TreeMap<String, Object> changedAttributes(Http2Protocol configured) {
        Http2Protocol defaults = new Http2Protocol();
        TreeMap<String, Object> changed = new TreeMap<>();
        for (Method getter : Http2Protocol.class.getMethods()) {
            String name = attributeName(getter);
            if (name == null || NOT_ATTRIBUTES.contains(name)) continue;
            try {
                Object value = getter.invoke(configured);
                if (!Objects.equals(value, getter.invoke(defaults))) changed.put(name, value);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // a getter that needs the protocol Tomcat wires it into (compression's): not an attribute set here
            }
        }
        return changed;
    }

    /** {@code getMaxHeaderSize} to {@code maxHeaderSize}, for getters of simple values; null otherwise. */
    private static String attributeName(Method method) {
        if (method.getParameterCount() != 0 || Modifier.isStatic(method.getModifiers())) return null;
        Class<?> type = method.getReturnType();
        if (!(type.isPrimitive() || type == String.class) || type == void.class) return null;
        String name = method.getName();
        int prefix = name.startsWith("get") ? 3 : name.startsWith("is") ? 2 : 0;
        if (prefix == 0 || name.length() == prefix) return null;
        return Character.toLowerCase(name.charAt(prefix)) + name.substring(prefix + 1);
    }
}
