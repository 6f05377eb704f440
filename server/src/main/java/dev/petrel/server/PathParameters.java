package dev.petrel.server;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a {@link Router} path template captured for a request: {@code /users/{id}} matched
 * against {@code /users/42} gives {@code id} = {@code "42"}, and {@code /files/{path...}}
 * against {@code /files/a/b.txt} gives {@code path} = {@code "a/b.txt"}. Values are taken from
 * the decoded path ({@link Request#path()}).
 *
 * <pre>{@code
 * Router.builder()
 *         .get("/users/{id}", (req, res) -> res.send("user " + req.pathParameters().getLong("id")))
 *         .get("/files/{path...}", (req, res) -> res.send("file " + req.pathParameter("path")))
 *         .build();
 * }</pre>
 *
 * <p>A match records only where each value lies in the path, so routing allocates nothing; a
 * value becomes a string when it is asked for. The server's requests carry a set of their own,
 * re-armed by each router that routes them: a router nested in another sees its own captures.
 * A value that does not parse as the type asked for ends the exchange with {@code 400}
 * ({@link HttpStatusException}), as a malformed request should.
 */
public final class PathParameters {
    /** No captures, and none can be recorded: what {@link Request#pathParameters()} gives by default. */
    public static final PathParameters NONE = new PathParameters(false);

    private static final String[] NO_NAMES = {};

    private final boolean writable;
    private String path;
    private String[] names = NO_NAMES; // the matched template's capture names, in order
    private int[] bounds = new int[8];  // start and end of each capture in path
    private int count;                  // captures recorded so far

    /**
     * An empty set that a router fills, for a {@link Request} implementation of one's own to
     * return from {@link Request#pathParameters()} (the server's requests have theirs).
     */
    public PathParameters() {
        this(true);
    }

    private PathParameters(boolean writable) {
        this.writable = writable;
    }

    /** The value captured as {@code name}, or {@code null} when the matched template has no such name. */
    public String get(String name) {
        int index = indexOf(Objects.requireNonNull(name, "name"));
        return index < 0 ? null : path.substring(bounds[2 * index], bounds[2 * index + 1]);
    }

    /**
     * The value captured as {@code name}, parsed by {@code parser} ({@code UUID::fromString},
     * say); a value it refuses (any runtime exception) ends the exchange with {@code 400}.
     *
     * @throws IllegalArgumentException when the matched template has no such name: a mistake in the handler, not the request
     */
    public <T> T get(String name, Function<String, T> parser) {
        String value = get(name);
        if (value == null) throw new IllegalArgumentException("no path parameter named " + name + " in the matched route");
        try {
            return parser.apply(value);
        } catch (RuntimeException e) {
            throw new HttpStatusException(400, "path parameter " + name + " is not valid");
        }
    }

    /** The value captured as {@code name} as a decimal {@code int}; {@code 400} when it is not one. */
    public int getInt(String name) {
        return get(name, Integer::parseInt);
    }

    /** The value captured as {@code name} as a decimal {@code long}; {@code 400} when it is not one. */
    public long getLong(String name) {
        return get(name, Long::parseLong);
    }

    /** How many values the matched template captured. */
    public int size() {
        return count;
    }

    /** Whether nothing was captured (no template matched). */
    public boolean isEmpty() {
        return count == 0;
    }

    /** Every captured value by name, in the template's order; a new map each call. */
    public Map<String, String> asMap() {
        if (count == 0) return Map.of();
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) values.put(names[i], path.substring(bounds[2 * i], bounds[2 * i + 1]));
        return Collections.unmodifiableMap(values);
    }

    @Override
    public String toString() {
        return asMap().toString();
    }

    // ---- filled by the router ----

    boolean writable() {
        return writable;
    }

    /** Forgets the last match: routing {@code path} begins. */
    void reset(String path) {
        this.path = path;
        this.names = NO_NAMES;
        this.count = 0;
    }

    /** Records the next capture, from {@code start} to {@code end} of the path. */
    void push(int start, int end) {
        if (2 * count + 2 > bounds.length) bounds = Arrays.copyOf(bounds, bounds.length * 2); // a long template, once
        bounds[2 * count] = start;
        bounds[2 * count + 1] = end;
        count++;
    }

    /** Takes back the last capture: the branch that recorded it did not match. */
    void pop() {
        count--;
    }

    /** The template matched: its captures are named {@code names}, in order. */
    void matched(String[] names) {
        this.names = names;
    }

    private int indexOf(String name) {
        for (int i = 0; i < count; i++) {
            if (names[i].equals(name)) return i;
        }
        return -1;
    }
}
