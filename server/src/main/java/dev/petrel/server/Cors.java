package dev.petrel.server;

import dev.petrel.http.Methods;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Cross-origin resource sharing as the Fetch standard has a browser ask for it, wrapped around a
 * handler: a script on another origin may call it when its origin is allowed.
 *
 * <pre>{@code
 * Handler app = Cors.builder()
 *         .allowOrigins("https://app.example.com")
 *         .allowMethods("GET", "POST", "PUT", "DELETE")
 *         .allowHeaders("Content-Type", "Authorization")
 *         .exposeHeaders("X-Total-Count")
 *         .allowCredentials(true)
 *         .maxAge(Duration.ofMinutes(10))
 *         .wrap(router);
 * }</pre>
 *
 * What it answers:
 * <ul>
 *   <li>A request without {@code Origin}, or from the server's own origin (a browser sends
 *       {@code Origin} with a same-origin {@code POST} too), is no cross-origin request: it goes to
 *       the handler untouched.</li>
 *   <li>A preflight ({@code OPTIONS} with {@code Origin} and
 *       {@code Access-Control-Request-Method}) is answered here, {@code 204}, when the origin,
 *       the method and every requested header are allowed: with
 *       {@code Access-Control-Allow-Origin}, {@code -Allow-Methods}, {@code -Allow-Headers},
 *       {@code -Max-Age} and, if set, {@code -Allow-Credentials}. One that asks for what is not
 *       allowed is answered {@code 403} with the reason, and never reaches the handler. (Methods
 *       and headers the Fetch standard calls safelisted need no allowing.)</li>
 *   <li>Any other request from another origin: from an allowed origin, the handler answers it
 *       and the response carries {@code Access-Control-Allow-Origin}, {@code -Expose-Headers} and
 *       {@code -Allow-Credentials}; from an origin not allowed, {@code 403}, as Tomcat's
 *       {@code CorsFilter} answers, so that a request the browser would hide the answer of is not
 *       acted on either.</li>
 * </ul>
 * Every answer that depends on the origin says so ({@code Vary: Origin}, and for a preflight the
 * request headers it read), so that a cache does not hand one origin's answer to another.
 */
public final class Cors implements Handler {
    /** The methods a browser sends without a preflight (Fetch: CORS-safelisted methods). */
    private static final Set<String> SAFELISTED_METHODS = Set.of(Methods.GET, Methods.HEAD, Methods.POST);
    /** Request headers a browser sends without a preflight (Fetch: CORS-safelisted request headers, by name). */
    private static final Set<String> SAFELISTED_HEADERS = Set.of("accept", "accept-language", "content-language", "content-type", "range");

    private final Handler handler;
    private final Set<String> origins; // lower case; empty with anyOrigin
    private final boolean anyOrigin;
    private final Set<String> methods;
    private final Set<String> headers; // lower case
    private final boolean anyHeader;
    private final String allowMethods;
    private final String exposeHeaders; // null when none
    private final boolean credentials;
    private final String maxAge;        // null when not set

    private Cors(Builder builder, Handler handler) {
        this.handler = handler;
        this.origins = Set.copyOf(builder.origins);
        this.anyOrigin = builder.anyOrigin;
        this.methods = Set.copyOf(builder.methods);
        this.headers = Set.copyOf(builder.headers);
        this.anyHeader = builder.anyHeader;
        TreeSet<String> all = new TreeSet<>(builder.methods);
        all.addAll(SAFELISTED_METHODS);
        this.allowMethods = String.join(", ", all);
        this.exposeHeaders = builder.exposed.isEmpty() ? null : String.join(", ", builder.exposed);
        this.credentials = builder.credentials;
        this.maxAge = builder.maxAge == null ? null : Long.toString(builder.maxAge.toSeconds());
    }

    /** A new builder: nothing allowed until told. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void handle(Request request, Response response) throws Exception {
        String origin = request.header("Origin");
        if (origin == null || sameOrigin(request, origin)) {
            handler.handle(request, response);
            return;
        }
        String requestedMethod = request.header("Access-Control-Request-Method");
        if (Methods.OPTIONS.equals(request.method()) && requestedMethod != null) {
            preflight(request, response, origin, requestedMethod);
            return;
        }
        response.addHeader("Vary", "Origin");
        if (!allowed(origin)) {
            response.status(403).send("Forbidden: cross-origin requests from this origin are not allowed\n");
            return;
        }
        allowOrigin(response, origin);
        if (exposeHeaders != null) response.header("Access-Control-Expose-Headers", exposeHeaders);
        handler.handle(request, response);
    }

    private void preflight(Request request, Response response, String origin, String method) throws Exception {
        String requestedHeaders = request.header("Access-Control-Request-Headers");
        response.addHeader("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
        if (!allowed(origin)) {
            response.status(403).send("Forbidden: cross-origin requests from this origin are not allowed\n");
            return;
        }
        if (!SAFELISTED_METHODS.contains(method) && !methods.contains(method)) {
            response.status(403).send("Forbidden: the method is not allowed for cross-origin requests\n");
            return;
        }
        List<String> asked = headerNames(requestedHeaders);
        for (String name : asked) {
            if (!anyHeader && !SAFELISTED_HEADERS.contains(name) && !headers.contains(name)) {
                response.status(403).send("Forbidden: a requested header is not allowed for cross-origin requests\n");
                return;
            }
        }
        response.status(204);
        allowOrigin(response, origin);
        response.header("Access-Control-Allow-Methods", allowMethods);
        if (!asked.isEmpty()) response.header("Access-Control-Allow-Headers", String.join(", ", asked));
        if (maxAge != null) response.header("Access-Control-Max-Age", maxAge);
        response.send();
    }

    private void allowOrigin(Response response, String origin) {
        // "*" only where no credentials go along: the Fetch standard refuses it for those
        response.header("Access-Control-Allow-Origin", anyOrigin && !credentials ? "*" : origin);
        if (credentials) response.header("Access-Control-Allow-Credentials", "true");
    }

    private boolean allowed(String origin) {
        return anyOrigin || origins.contains(origin.toLowerCase(Locale.ROOT));
    }

    /** Whether {@code origin} is the request's own: its scheme and host (with port, as the Host field has it). */
    private static boolean sameOrigin(Request request, String origin) {
        String host = request.host();
        if (host == null) return false;
        String scheme = request.scheme();
        int hostStart = scheme.length() + 3;
        if (origin.length() <= hostStart || !origin.regionMatches(true, 0, scheme, 0, scheme.length())
                || !origin.startsWith("://", scheme.length())) return false;
        String originHost = origin.substring(hostStart);
        if (originHost.equalsIgnoreCase(host)) return true;
        // the default port may be written in one and left out in the other
        String defaultPort = "https".equalsIgnoreCase(scheme) ? ":443" : ":80";
        return originHost.equalsIgnoreCase(host + defaultPort) || (originHost + defaultPort).equalsIgnoreCase(host);
    }

    /** The names in an {@code Access-Control-Request-Headers} value, lower case (browsers send them so). */
    private static List<String> headerNames(String value) {
        if (value == null || value.isBlank()) return List.of();
        List<String> names = new ArrayList<>();
        for (String name : value.split(",")) {
            String trimmed = name.strip().toLowerCase(Locale.ROOT);
            if (!trimmed.isEmpty()) names.add(trimmed);
        }
        return names;
    }

    @Override
    public boolean mayBlock() {
        return handler.mayBlock();
    }

    @Override
    public boolean mayBlock(Request request) {
        return handler.mayBlock(request); // a preflight or a 403 never blocks, and is answered wherever it runs
    }

    @Override
    public boolean servesWebSockets() {
        return handler.servesWebSockets();
    }

    /** What a {@link Cors} allows; not thread-safe, build once at start-up. */
    public static final class Builder {
        private final Set<String> origins = new LinkedHashSet<>();
        private boolean anyOrigin;
        private final Set<String> methods = new LinkedHashSet<>();
        private final Set<String> headers = new LinkedHashSet<>();
        private boolean anyHeader;
        private final Set<String> exposed = new LinkedHashSet<>();
        private boolean credentials;
        private Duration maxAge;

        private Builder() {}

        /**
         * Allows these origins, each as a browser sends it: scheme, host and the port unless it is
         * the scheme's default ({@code https://app.example.com}, {@code http://localhost:3000}).
         */
        public Builder allowOrigins(String... origins) {
            for (String origin : origins) {
                Objects.requireNonNull(origin, "origin");
                if (origin.equals("*")) throw new IllegalArgumentException("use allowAnyOrigin() to allow every origin");
                if (!origin.contains("://") || origin.endsWith("/")) {
                    throw new IllegalArgumentException("an origin is scheme://host[:port], without a path: " + origin);
                }
                this.origins.add(origin.toLowerCase(Locale.ROOT));
            }
            return this;
        }

        /** Allows every origin ({@code Access-Control-Allow-Origin: *}); not with {@link #allowCredentials}. */
        public Builder allowAnyOrigin() {
            this.anyOrigin = true;
            return this;
        }

        /** Allows these methods beyond GET, HEAD and POST, which need no allowing. */
        public Builder allowMethods(String... methods) {
            for (String method : methods) this.methods.add(Objects.requireNonNull(method, "method"));
            return this;
        }

        /** Allows these request headers beyond the safelisted ones ({@code Accept}, {@code Content-Type} and a few more). */
        public Builder allowHeaders(String... headers) {
            for (String header : headers) this.headers.add(Objects.requireNonNull(header, "header").toLowerCase(Locale.ROOT));
            return this;
        }

        /** Allows every request header a preflight asks for. */
        public Builder allowAnyHeader() {
            this.anyHeader = true;
            return this;
        }

        /** Lets scripts read these response headers beyond the safelisted ones ({@code Content-Type} and a few more). */
        public Builder exposeHeaders(String... headers) {
            for (String header : headers) this.exposed.add(Objects.requireNonNull(header, "header"));
            return this;
        }

        /** Lets requests carry cookies and credentials ({@code Access-Control-Allow-Credentials: true}). */
        public Builder allowCredentials(boolean credentials) {
            this.credentials = credentials;
            return this;
        }

        /** How long a browser may keep a preflight's answer ({@code Access-Control-Max-Age}); browsers cap it (Chromium: 2 h). */
        public Builder maxAge(Duration maxAge) {
            if (maxAge.isNegative()) throw new IllegalArgumentException("a negative max-age: " + maxAge);
            this.maxAge = maxAge;
            return this;
        }

        /**
         * {@code handler} behind these rules.
         *
         * @throws IllegalStateException when nothing is allowed, or every origin with credentials
         *         (the Fetch standard refuses it; list the origins instead)
         */
        public Cors wrap(Handler handler) {
            Objects.requireNonNull(handler, "handler");
            if (!anyOrigin && origins.isEmpty()) throw new IllegalStateException("no origin is allowed: call allowOrigins or allowAnyOrigin");
            if (anyOrigin && credentials) {
                throw new IllegalStateException("credentials cannot be allowed from every origin: list the origins instead");
            }
            return new Cors(this, handler);
        }
    }
}
