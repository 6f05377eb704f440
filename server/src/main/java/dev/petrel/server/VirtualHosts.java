package dev.petrel.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Handlers chosen by the host a request was sent to ({@link Request#host()}: the {@code Host}
 * field over HTTP/1.1, {@code :authority} over HTTP/2), as nginx's {@code server_name} and
 * Tomcat's {@code <Host>} choose a site; a request for no known host goes to the fallback.
 *
 * <pre>{@code
 * Handler app = VirtualHosts.builder()
 *         .host("shop.example.com", shop)
 *         .host("*.example.com", wildcard)          // any subdomain: a.example.com, a.b.example.com
 *         .fallback(mainSite)                       // every other host, and none
 *         .build();
 * }</pre>
 *
 * Names are compared without case, the port and a trailing dot of the host left out
 * ({@code Shop.Example.com.:8443} is {@code shop.example.com}); an exact name wins over a
 * wildcard, and a longer wildcard over a shorter one. The host is compared in place, never copied
 * or lower-cased into a new string.
 */
public final class VirtualHosts implements Handler {
    private record Site(String name, boolean wildcard, Handler handler) {}

    private final List<Site> sites; // exact names first, then wildcards longest first
    private final Handler fallback;

    private VirtualHosts(List<Site> sites, Handler fallback) {
        this.sites = sites;
        this.fallback = fallback;
    }

    /** A new builder: no host, and a 404 for every request until told. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void handle(Request request, Response response) throws Exception {
        handlerFor(request).handle(request, response);
    }

    @Override
    public boolean mayBlock(Request request) {
        return handlerFor(request).mayBlock(request);
    }

    @Override
    public boolean mayBlock() {
        if (fallback.mayBlock()) return true;
        for (Site site : sites) if (site.handler.mayBlock()) return true;
        return false;
    }

    @Override
    public boolean servesWebSockets() {
        if (fallback.servesWebSockets()) return true;
        for (Site site : sites) if (site.handler.servesWebSockets()) return true;
        return false;
    }

    private Handler handlerFor(Request request) {
        String host = request.host();
        if (host == null || host.isEmpty()) return fallback;
        int end = hostEnd(host);
        for (Site site : sites) {
            if (site.wildcard ? endsWith(host, end, site.name) : equals(host, end, site.name)) return site.handler;
        }
        return fallback;
    }

    /** Where the host's name ends: before the port and a trailing dot ({@code [::1]:8080} ends after the bracket). */
    private static int hostEnd(String host) {
        int end = host.length();
        int colon = host.lastIndexOf(':');
        if (colon > host.lastIndexOf(']')) end = colon; // a port, not a colon inside an IPv6 literal
        if (end > 0 && host.charAt(end - 1) == '.') end--;
        return end;
    }

    private static boolean equals(String host, int end, String name) {
        return end == name.length() && host.regionMatches(true, 0, name, 0, end);
    }

    /** Whether the host is a subdomain of {@code suffix} ({@code .example.com}): at least one label before it. */
    private static boolean endsWith(String host, int end, String suffix) {
        int start = end - suffix.length();
        return start > 0 && host.regionMatches(true, start, suffix, 0, suffix.length());
    }

    /** Collects the hosts; not thread-safe, build once at start-up. */
    public static final class Builder {
        private final List<Site> exact = new ArrayList<>();
        private final List<Site> wildcards = new ArrayList<>();
        private Handler fallback = (request, response) -> response.status(404).send("Not Found: no site for this host\n");

        private Builder() {}

        /**
         * Serves requests for {@code name} with {@code handler}: a host name
         * ({@code example.com}), an address ({@code 127.0.0.1}, {@code [::1]}), or
         * {@code *.example.com} for every subdomain of {@code example.com} (not the name itself).
         *
         * @throws IllegalArgumentException for an empty name, one with a port, or a name given twice
         */
        public Builder host(String name, Handler handler) {
            Objects.requireNonNull(handler, "handler");
            String lower = Objects.requireNonNull(name, "name").toLowerCase(Locale.ROOT);
            if (lower.endsWith(".")) lower = lower.substring(0, lower.length() - 1);
            boolean wildcard = lower.startsWith("*.");
            String key = wildcard ? lower.substring(1) : lower; // a wildcard keeps its dot: ".example.com"
            if (key.isEmpty() || key.equals(".") || key.indexOf('*') >= 0 || key.lastIndexOf(':') > key.lastIndexOf(']')
                    || key.chars().anyMatch(c -> c <= ' ' || c == '/')) {
                throw new IllegalArgumentException("a host is a name, an address or *.name, without a port: " + name);
            }
            List<Site> list = wildcard ? wildcards : exact;
            for (Site site : list) {
                if (site.name.equals(key)) throw new IllegalArgumentException("host given twice: " + name);
            }
            list.add(new Site(key, wildcard, handler));
            return this;
        }

        /** Serves requests for every other host, and those without one (default: 404). */
        public Builder fallback(Handler handler) {
            this.fallback = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** The handler. */
        public VirtualHosts build() {
            List<Site> sites = new ArrayList<>(exact);
            List<Site> byLength = new ArrayList<>(wildcards);
            byLength.sort((a, b) -> Integer.compare(b.name.length(), a.name.length()));
            sites.addAll(byLength);
            return new VirtualHosts(List.copyOf(sites), fallback);
        }
    }
}
