package dev.petrel.server;

import dev.petrel.http.Methods;
import dev.petrel.server.config.WebSocketConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Routes requests by method and decoded path. Exact paths are looked up in a map; prefix routes
 * ({@code "/static/*"}) are tried longest first; a fallback handler takes the rest (404 by default).
 * {@code HEAD} falls back to the {@code GET} handler. What a client may ask of the methods is
 * answered as RFC 9110 says:
 * <ul>
 *   <li>{@code OPTIONS} on a route without an OPTIONS handler of its own: {@code 204} with
 *       {@code Allow} listing its methods; {@code OPTIONS *}: {@code 204} with every method the
 *       router serves anywhere;</li>
 *   <li>a method the router does not recognize (neither a standard one nor routed anywhere):
 *       {@code 501 Not Implemented};</li>
 *   <li>a recognized method a matching route does not serve: {@code 405} with {@code Allow}.</li>
 * </ul>
 * An HTTP/2 extended CONNECT for {@code websocket} (RFC 8441) is the opening handshake of a
 * WebSocket there: it goes to the {@link Builder#websocket WebSocket route} of its path as the
 * {@code GET} of an HTTP/1.1 handshake would, and is answered as any CONNECT elsewhere
 * ({@code 405} on a route without one, {@code 404} where no route matches).
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
    private record Route(String pattern, Map<String, Handler> byMethod, String allow) {
        Route(String pattern, Map<String, Handler> byMethod) {
            this(pattern, byMethod, Router.allow(byMethod.keySet()));
        }
    }

    /** The methods of RFC 9110 section 9 and PATCH (RFC 5789): recognized, though a route may not serve them (405). */
    private static final Set<String> STANDARD = Set.of(Methods.GET, Methods.HEAD, Methods.POST, Methods.PUT, Methods.DELETE,
            Methods.CONNECT, Methods.OPTIONS, Methods.TRACE, Methods.PATCH);

    private final Map<String, Route> exact;
    private final List<Route> prefixes; // longest first
    private final Handler fallback;
    private final Set<String> recognized; // standard methods and every method routed anywhere
    private final boolean anyMethodRouted; // a route takes "*": every method is recognized
    private final String allowAll;         // the Allow of OPTIONS *

    private Router(Map<String, Route> exact, List<Route> prefixes, Handler fallback) {
        this.exact = exact;
        this.prefixes = prefixes;
        this.fallback = fallback;
        TreeSet<String> routed = new TreeSet<>();
        exact.values().forEach(route -> routed.addAll(route.byMethod.keySet()));
        prefixes.forEach(route -> routed.addAll(route.byMethod.keySet()));
        this.anyMethodRouted = routed.remove("*");
        TreeSet<String> known = new TreeSet<>(STANDARD);
        known.addAll(routed);
        this.recognized = Set.copyOf(known);
        routed.add(Methods.GET); // the fallback serves GET (and so HEAD), if only with a 404
        this.allowAll = allow(routed);
    }

    /** A new, empty builder. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void handle(Request request, Response response) throws Exception {
        String method = request.method();
        if (!recognizes(method)) {
            response.status(501).send("Not Implemented: method " + method + " is not served here\n");
            return;
        }
        String path = request.path();
        if ("*".equals(path)) { // OPTIONS *, the only method the codec lets through with this target
            response.status(204).header("Allow", allowAll).send();
            return;
        }
        Route route = find(path);
        if (route == null) {
            fallback.handle(request, response);
            return;
        }
        Handler handler = handlerFor(route, request);
        if (handler != null) {
            handler.handle(request, response);
        } else if (Methods.OPTIONS.equals(method)) {
            response.status(204).header("Allow", route.allow).send();
        } else {
            response.status(405).header("Allow", route.allow).send("Method Not Allowed\n");
        }
    }

    /** Whether the handler this request is routed to may block it (the router's own answers never do). */
    @Override
    public boolean mayBlock(Request request) {
        if (!recognizes(request.method()) || "*".equals(request.path())) return false;
        Route route = find(request.path());
        if (route == null) return fallback.mayBlock(request);
        Handler handler = handlerFor(route, request);
        return handler != null && handler.mayBlock(request);
    }

    private boolean recognizes(String method) {
        return anyMethodRouted || recognized.contains(method);
    }

    private static Handler handlerFor(Route route, Request request) {
        String method = request.method();
        if (Methods.CONNECT.equals(method) && "websocket".equalsIgnoreCase(request.connectProtocol())
                && route.byMethod.get(Methods.GET) instanceof WebSocketRoute webSocket) {
            return webSocket; // RFC 8441: the extended CONNECT is HTTP/2's opening handshake, HTTP/1.1's GET
        }
        Handler handler = route.byMethod.get(method);
        if (handler == null && Methods.HEAD.equals(method)) handler = route.byMethod.get(Methods.GET);
        if (handler == null) handler = route.byMethod.get("*");
        return handler;
    }

    /** Whether any route serves WebSocket sessions ({@link Builder#websocket}), or the fallback does. */
    @Override
    public boolean servesWebSockets() {
        if (fallback.servesWebSockets()) return true;
        for (Route route : exact.values()) if (route.byMethod.get(Methods.GET) instanceof WebSocketRoute) return true;
        for (Route route : prefixes) if (route.byMethod.get(Methods.GET) instanceof WebSocketRoute) return true;
        return false;
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

    /** An {@code Allow} value: the methods, HEAD with GET, and OPTIONS, which the router answers itself; "*" stands for any. */
    private static String allow(Set<String> routed) {
        TreeSet<String> methods = new TreeSet<>(routed);
        methods.remove("*");
        if (methods.contains(Methods.GET)) methods.add(Methods.HEAD);
        methods.add(Methods.OPTIONS);
        return String.join(", ", methods);
    }

    /**
     * A route's opening handshake: it never blocks (the session runs on a thread of its own
     * after it), so it runs on the event loop of the {@code nio} transport. A type of its own, so
     * that the router knows its WebSocket routes.
     */
    private record WebSocketRoute(WebSocketHandler handler, WebSocketConfig config) implements Handler {
        @Override
        public void handle(Request request, Response response) throws Exception {
            response.upgradeToWebSocket(handler, config);
        }

        @Override
        public boolean mayBlock() {
            return false;
        }

        @Override
        public boolean servesWebSockets() {
            return true;
        }
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

        /**
         * Serves WebSocket sessions on {@code path} with {@code handler} and the defaults of
         * {@link WebSocketConfig#DEFAULT} (see {@link #websocket(String, WebSocketConfig, WebSocketHandler)}).
         */
        public Builder websocket(String path, WebSocketHandler handler) {
            return websocket(path, WebSocketConfig.DEFAULT, handler);
        }

        /**
         * Serves WebSocket sessions (RFC 6455) on {@code path}: a {@code GET} there is an opening
         * handshake (over HTTP/2 an extended CONNECT, RFC 8441), answered by {@link Response#upgradeToWebSocket}, and each session is served
         * by {@code handler} on a thread of its own. The handshake itself never blocks, so it runs
         * on the event loop of the {@code nio} transport.
         */
        public Builder websocket(String path, WebSocketConfig config, WebSocketHandler handler) {
            Objects.requireNonNull(config, "config");
            Objects.requireNonNull(handler, "handler");
            return get(path, new WebSocketRoute(handler, config));
        }

        /**
         * Serves WebSocket sessions on {@code path} with {@code listener}, called back with each
         * message (inline on the {@code nio} transport's event loop: see {@link WebSocketListener}),
         * and the defaults of {@link WebSocketConfig#DEFAULT}.
         */
        public Builder websocket(String path, WebSocketListener listener) {
            return websocket(path, WebSocketConfig.DEFAULT, (WebSocketHandler) listener);
        }

        /**
         * Serves WebSocket sessions on {@code path} with {@code listener}, called back with each
         * message (inline on the {@code nio} transport's event loop: see {@link WebSocketListener}).
         */
        public Builder websocket(String path, WebSocketConfig config, WebSocketListener listener) {
            return websocket(path, config, (WebSocketHandler) listener);
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
