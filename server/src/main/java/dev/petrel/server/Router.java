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
 * Routes requests by method and decoded path. Exact paths are looked up in a map; then path
 * templates ({@code "/users/{id}"}, {@code "/files/{path...}"}), whose captures the handler reads
 * from {@link Request#pathParameters()}, and prefixes ({@code "/static/*"}), in one tree of
 * segments where, at each segment, a literal wins over a variable and a variable over a rest or a
 * prefix, whatever the order the routes were given in (so the longest prefix wins); a fallback
 * handler takes the rest (404 by default). Routing allocates nothing (see {@link Builder#route}).
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
 *         .get("/users/{id}", (req, res) -> res.send("user " + req.pathParameters().getLong("id")))
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
    private final PathTemplates<Route> templates; // templates and prefixes; null without any
    private final List<Route> templateRoutes;
    private final Handler fallback;
    private final Set<String> recognized; // standard methods and every method routed anywhere
    private final boolean anyMethodRouted; // a route takes "*": every method is recognized
    private final String allowAll;         // the Allow of OPTIONS *

    private Router(Map<String, Route> exact, PathTemplates<Route> templates, List<Route> templateRoutes, Handler fallback) {
        this.exact = exact;
        this.templates = templates;
        this.templateRoutes = templateRoutes;
        this.fallback = fallback;
        TreeSet<String> routed = new TreeSet<>();
        exact.values().forEach(route -> routed.addAll(route.byMethod.keySet()));
        templateRoutes.forEach(route -> routed.addAll(route.byMethod.keySet()));
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
        if (templates != null && !request.pathParameters().writable()) request = new CapturingRequest(request);
        Route route = find(request, path);
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
        if (templates != null && !request.pathParameters().writable()) request = new CapturingRequest(request);
        Route route = find(request, request.path());
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
        for (Route route : templateRoutes) if (route.byMethod.get(Methods.GET) instanceof WebSocketRoute) return true;
        return false;
    }

    /** A router may block when any of its handlers may. */
    @Override
    public boolean mayBlock() {
        if (fallback.mayBlock()) return true;
        for (Route route : exact.values()) {
            for (Handler handler : route.byMethod.values()) if (handler.mayBlock()) return true;
        }
        for (Route route : templateRoutes) {
            for (Handler handler : route.byMethod.values()) if (handler.mayBlock()) return true;
        }
        return false;
    }

    /** The route for {@code path}: exact, else a template or a prefix (its captures recorded in the request's parameters). */
    private Route find(Request request, String path) {
        PathParameters captures = request.pathParameters();
        if (captures.writable()) captures.reset(path); // what an outer router or the last request captured is gone
        Route route = exact.get(path);
        if (route != null) return route;
        return templates == null ? null : templates.match(path, captures);
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
        private final Map<String, Map<String, Handler>> templates = new LinkedHashMap<>(); // templates and prefixes, by shape
        private final Map<String, String> templatePatterns = new LinkedHashMap<>();     // shape -> pattern
        private Handler fallback = (request, response) -> response.status(404).send("Not Found\n");

        private Builder() {}

        /**
         * Routes {@code method} on {@code path} to {@code handler}; method {@code *} matches any.
         * {@code path} is one of:
         * <ul>
         *   <li>an exact path, {@code /about};</li>
         *   <li>a template, whose segments may be variables: {@code {name}} matches one non-empty
         *       segment, and {@code {name...}}, only last, matches the rest of the path, slashes
         *       and all (possibly empty: {@code /files/{path...}} matches {@code /files/} but not
         *       {@code /files}). The handler reads what they captured from
         *       {@link Request#pathParameters()}. A variable is a whole segment; names are letters,
         *       digits, {@code _} and {@code -};</li>
         *   <li>a prefix, ending in {@code /*}: every path under it ({@code /static/*} matches
         *       {@code /static/} and {@code /static/a/b}, not {@code /static}); a template may end
         *       in one too ({@code /users/{id}/*}).</li>
         * </ul>
         * Two routes that match the same paths (the same but for their variables' names, or a
         * prefix and a rest at the same place) are refused, as is a route given twice.
         *
         * @throws IllegalArgumentException for a malformed path or a route given twice
         */
        public Builder route(String method, String path, Handler handler) {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(handler, "handler");
            if (!path.startsWith("/")) throw new IllegalArgumentException("a route path starts with '/': " + path);
            Map<String, Handler> byMethod;
            if (PathTemplates.isTemplate(path)) {
                String shape = PathTemplates.shape(path);
                String earlier = templatePatterns.putIfAbsent(shape, path);
                if (earlier != null && !earlier.equals(path)) {
                    throw new IllegalArgumentException("routes " + earlier + " and " + path + " match the same paths");
                }
                byMethod = templates.computeIfAbsent(shape, k -> new LinkedHashMap<>());
            } else {
                byMethod = exact.computeIfAbsent(path, k -> new LinkedHashMap<>());
            }
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
            List<Route> templateRoutes = new ArrayList<>();
            PathTemplates.Builder<Route> tree = new PathTemplates.Builder<>();
            templates.forEach((shape, methods) -> {
                String pattern = templatePatterns.get(shape);
                Route route = new Route(pattern, Map.copyOf(methods));
                templateRoutes.add(route);
                tree.add(pattern, route);
            });
            return new Router(Map.copyOf(exactRoutes), templateRoutes.isEmpty() ? null : tree.build(), List.copyOf(templateRoutes),
                    fallback);
        }
    }
}
