package dev.petrel.server;

import dev.petrel.http.Methods;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Routes requests by method and decoded path. Exact paths are looked up in a map; prefix routes
 * ({@code "/static/*"}) are tried longest first; a fallback handler takes the rest (404 by default).
 * {@code HEAD} falls back to the {@code GET} handler. A path that matches under another method
 * gets 405 with an {@code Allow} header.
 *
 * <pre>{@code
 * Handler app = Router.builder()
 *         .get("/", (req, res) -> res.send("HelloWorld"))
 *         .post("/echo", (req, res) -> res.send(req.bodyBytes()))
 *         .get("/files/*", new StaticFiles(root))
 *         .build();
 * }</pre>
 */
public final class Router implements Handler {
    private record Route(String pattern, Map<String, Handler> byMethod) {}

    private final Map<String, Route> exact;
    private final List<Route> prefixes; // longest first
    private final Handler fallback;

    private Router(Map<String, Route> exact, List<Route> prefixes, Handler fallback) {
        this.exact = exact;
        this.prefixes = prefixes;
        this.fallback = fallback;
    }

    /** A new, empty builder. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void handle(Request request, Response response) throws Exception {
        Route route = find(request.path());
        if (route == null) {
            fallback.handle(request, response);
            return;
        }
        Handler handler = handlerFor(route, request.method());
        if (handler == null) {
            response.status(405).header("Allow", allow(route)).send("Method Not Allowed\n");
            return;
        }
        handler.handle(request, response);
    }

    /** Whether the handler this request is routed to may block it (a 405 answer never does). */
    @Override
    public boolean mayBlock(Request request) {
        Route route = find(request.path());
        if (route == null) return fallback.mayBlock(request);
        Handler handler = handlerFor(route, request.method());
        return handler != null && handler.mayBlock(request);
    }

    private static Handler handlerFor(Route route, String method) {
        Handler handler = route.byMethod.get(method);
        if (handler == null && Methods.HEAD.equals(method)) handler = route.byMethod.get(Methods.GET);
        if (handler == null) handler = route.byMethod.get("*");
        return handler;
    }

    /** A router may block when any of its handlers may. */
    @Override
    public boolean mayBlock() {
        if (fallback.mayBlock()) return true;
        for (Route route : exact.values()) {
            for (Handler handler : route.byMethod.values()) if (handler.mayBlock()) return true;
        }
        for (Route route : prefixes) {
            for (Handler handler : route.byMethod.values()) if (handler.mayBlock()) return true;
        }
        return false;
    }

    private Route find(String path) {
        Route route = exact.get(path);
        if (route != null) return route;
        for (Route prefix : prefixes) {
            if (path.startsWith(prefix.pattern)) return prefix;
        }
        return null;
    }

    private static String allow(Route route) {
        TreeSet<String> methods = new TreeSet<>(route.byMethod.keySet());
        if (methods.contains(Methods.GET)) methods.add(Methods.HEAD);
        return String.join(", ", methods);
    }

    /** Collects routes; not thread-safe, build once at start-up. */
    public static final class Builder {
        private final Map<String, Map<String, Handler>> exact = new LinkedHashMap<>();
        private final Map<String, Map<String, Handler>> prefixes = new LinkedHashMap<>();
        private Handler fallback = (request, response) -> response.status(404).send("Not Found\n");

        private Builder() {}

        /** Routes {@code method} on {@code path} to {@code handler}. A path ending in {@code /*} matches every path under it; method {@code *} matches any. */
        public Builder route(String method, String path, Handler handler) {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(handler, "handler");
            if (!path.startsWith("/")) throw new IllegalArgumentException("a route path starts with '/': " + path);
            boolean prefix = path.endsWith("/*");
            String key = prefix ? path.substring(0, path.length() - 1) : path;
            Map<String, Handler> byMethod = (prefix ? prefixes : exact).computeIfAbsent(key, k -> new LinkedHashMap<>());
            if (byMethod.putIfAbsent(method, handler) != null) {
                throw new IllegalArgumentException("route defined twice: " + method + " " + path);
            }
            return this;
        }

        /** Routes GET (and so HEAD) on {@code path}. */
        public Builder get(String path, Handler handler) {
            return route(Methods.GET, path, handler);
        }

        /** Routes POST on {@code path}. */
        public Builder post(String path, Handler handler) {
            return route(Methods.POST, path, handler);
        }

        /** Routes PUT on {@code path}. */
        public Builder put(String path, Handler handler) {
            return route(Methods.PUT, path, handler);
        }

        /** Routes DELETE on {@code path}. */
        public Builder delete(String path, Handler handler) {
            return route(Methods.DELETE, path, handler);
        }

        /** Sets the handler for requests no route matches (default: 404). */
        public Builder fallback(Handler handler) {
            this.fallback = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** The router. */
        public Router build() {
            Map<String, Route> exactRoutes = new LinkedHashMap<>();
            exact.forEach((path, methods) -> exactRoutes.put(path, new Route(path, Map.copyOf(methods))));
            List<Route> prefixRoutes = new ArrayList<>();
            prefixes.forEach((path, methods) -> prefixRoutes.add(new Route(path, Map.copyOf(methods))));
            prefixRoutes.sort((a, b) -> Integer.compare(b.pattern.length(), a.pattern.length()));
            return new Router(Map.copyOf(exactRoutes), List.copyOf(prefixRoutes), fallback);
        }
    }
}
