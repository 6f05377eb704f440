package dev.petrel.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link Router}'s path templates and prefixes as a tree of segments: {@code /users/{id}/posts}
 * is the literal {@code users}, a variable, then the literal {@code posts}; {@code /static/*} is
 * the literal {@code static}, then an unnamed rest. A path is matched segment by segment, a literal
 * before a variable before a rest ({@code {path...}}, or a prefix's {@code *}) at each level, going
 * back when a branch fails further down; so {@code /users/me} wins over {@code /users/{id}}
 * whatever the order the routes were given in, the longest prefix wins, and a path matches one
 * route at most.
 *
 * <p>Matching compares regions of the path in place, finds a literal among many by a hash of its
 * region, and records captures as offsets ({@link PathParameters}): nothing is allocated on a match
 * or a miss.
 *
 * @param <R> what a template leads to (the router's route)
 */
final class PathTemplates<R> {
    private final Node<R> root;

    private PathTemplates(Node<R> root) {
        this.root = root;
    }

    /** Whether {@code pattern} goes in the tree (it has a variable, or ends in a prefix's {@code /*}) rather than being an exact path. */
    static boolean isTemplate(String pattern) {
        return pattern.indexOf('{') >= 0 || pattern.endsWith("/*");
    }

    /**
     * The shape of a template, its variables unnamed ({@code /users/{}/posts}, a rest as
     * {@code {...}}): two templates of one shape match the same paths.
     */
    static String shape(String pattern) {
        StringBuilder shape = new StringBuilder();
        for (Segment segment : Segment.parse(pattern)) {
            shape.append('/').append(switch (segment.kind) {
                case LITERAL -> segment.text;
                case VARIABLE -> "{}";
                case REST, PREFIX -> "{...}";
            });
        }
        return shape.toString();
    }

    /** The route matching {@code path}, its captures recorded in {@code into}; {@code null} when none does. */
    R match(String path, PathParameters into) {
        if (path.isEmpty() || path.charAt(0) != '/') return null; // a CONNECT's authority, say: no route's path
        return match(root, path, 1, into);
    }

    private R match(Node<R> node, String path, int start, PathParameters into) {
        int end = path.indexOf('/', start);
        if (end < 0) end = path.length();
        boolean last = end == path.length();
        int literal = node.literal(path, start, end);
        if (literal >= 0) {
            R found = last ? node.literalNodes[literal].end(into) : match(node.literalNodes[literal], path, end + 1, into);
            if (found != null) return found;
        }
        int length = end - start;
        if (node.variable != null && length > 0) {
            into.push(start, end);
            R found = last ? node.variable.end(into) : match(node.variable, path, end + 1, into);
            if (found != null) return found;
            into.pop();
        }
        if (node.rest != null) {
            if (node.restCaptured) into.push(start, path.length());
            into.matched(node.restNames);
            return node.rest;
        }
        return null;
    }

    /** Collects templates; each must be new in shape (the router merges a template's methods before). */
    static final class Builder<R> {
        private final MutableNode<R> root = new MutableNode<>();

        void add(String pattern, R route) {
            List<Segment> segments = Segment.parse(pattern);
            List<String> names = new ArrayList<>();
            MutableNode<R> node = root;
            for (int i = 0; i < segments.size(); i++) {
                Segment segment = segments.get(i);
                switch (segment.kind) {
                    case LITERAL -> node = node.literals.computeIfAbsent(segment.text, text -> new MutableNode<>());
                    case VARIABLE -> {
                        names.add(segment.text);
                        if (node.variable == null) node.variable = new MutableNode<>();
                        node = node.variable;
                    }
                    case REST, PREFIX -> {
                        boolean captured = segment.kind == Segment.Kind.REST;
                        if (captured) names.add(segment.text);
                        if (i != segments.size() - 1) throw new IllegalArgumentException("a rest {" + segment.text
                                + "...} must be the last segment of a route: " + pattern);
                        if (node.rest != null) throw new IllegalArgumentException("two routes match the same paths: " + pattern);
                        node.rest = route;
                        node.restCaptured = captured;
                        node.restNames = names.toArray(String[]::new);
                        return;
                    }
                }
            }
            node.route = route;
            node.names = names.toArray(String[]::new);
        }

        PathTemplates<R> build() {
            return new PathTemplates<>(root.freeze());
        }
    }

    /** One segment of a template. */
    private record Segment(Kind kind, String text) {
        enum Kind { LITERAL, VARIABLE, REST, PREFIX }

        static List<Segment> parse(String pattern) {
            if (!pattern.startsWith("/")) throw new IllegalArgumentException("a route path starts with '/': " + pattern);
            List<Segment> segments = new ArrayList<>();
            List<String> names = new ArrayList<>();
            String[] parts = pattern.substring(1).split("/", -1);
            for (int i = 0; i < parts.length; i++) {
                if (i == parts.length - 1 && parts[i].equals("*")) { // a prefix: every path under what came before
                    segments.add(new Segment(Kind.PREFIX, "*"));
                    break;
                }
                Segment segment = of(parts[i], pattern);
                if (segment.kind == Kind.VARIABLE || segment.kind == Kind.REST) {
                    if (names.contains(segment.text)) {
                        throw new IllegalArgumentException("path parameter {" + segment.text + "} named twice in " + pattern);
                    }
                    names.add(segment.text);
                }
                segments.add(segment);
            }
            return segments;
        }

        private static Segment of(String part, String pattern) {
            boolean opens = part.startsWith("{");
            boolean closes = part.endsWith("}");
            if (!opens && !closes && part.indexOf('{') < 0 && part.indexOf('}') < 0) return new Segment(Kind.LITERAL, part);
            if (!opens || !closes || part.indexOf('{', 1) >= 0 || part.indexOf('}') != part.length() - 1) {
                throw new IllegalArgumentException("a path parameter is a whole segment, {name} or {name...}: " + pattern);
            }
            String inner = part.substring(1, part.length() - 1);
            boolean rest = inner.endsWith("...");
            String name = rest ? inner.substring(0, inner.length() - 3) : inner;
            if (name.isEmpty() || !name.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_' || c == '-')) {
                throw new IllegalArgumentException("a path parameter's name is letters, digits, '_' and '-': " + pattern);
            }
            return new Segment(rest ? Kind.REST : Kind.VARIABLE, name);
        }
    }

    /** A level of the tree as it is built. */
    private static final class MutableNode<R> {
        final Map<String, MutableNode<R>> literals = new LinkedHashMap<>();
        MutableNode<R> variable;
        R route;
        String[] names;
        R rest;
        boolean restCaptured;
        String[] restNames;

        Node<R> freeze() {
            String[] texts = literals.keySet().toArray(String[]::new);
            @SuppressWarnings("unchecked")
            Node<R>[] children = new Node[texts.length];
            for (int i = 0; i < texts.length; i++) children[i] = literals.get(texts[i]).freeze();
            return new Node<>(texts, children, LiteralTable.of(texts), variable == null ? null : variable.freeze(), route, names,
                    rest, restCaptured, restNames);
        }
    }

    /**
     * A level of the tree: the literals that may come next (with a hash table of them when there
     * are many), a variable, a rest, and the route ending here.
     */
    private record Node<R>(String[] literals, Node<R>[] literalNodes, LiteralTable table, Node<R> variable, R route,
                           String[] names, R rest, boolean restCaptured, String[] restNames) {
        /** The index of the literal equal to {@code path} from {@code start} to {@code end}, or -1. */
        int literal(String path, int start, int end) {
            if (table != null) return table.find(literals, path, start, end);
            int length = end - start;
            for (int i = 0; i < literals.length; i++) {
                String literal = literals[i];
                if (literal.length() == length && path.regionMatches(start, literal, 0, length)) return i;
            }
            return -1;
        }

        /** The path ended at this level: its route, if a template ends here. */
        R end(PathParameters into) {
            if (route == null) return null;
            into.matched(names);
            return route;
        }
    }

    /**
     * Open addressing over a level's literals, by the hash {@link String#hashCode()} would give a
     * region of the path: one probe finds a literal among dozens (the resources of an API), where
     * comparing each of those of the same length would take as many.
     */
    private record LiteralTable(int[] slots, int[] hashes, int mask) {
        private static final int LINEAR_UP_TO = 4; // so few literals are quicker compared one by one

        static LiteralTable of(String[] literals) {
            if (literals.length <= LINEAR_UP_TO) return null;
            int size = Integer.highestOneBit(literals.length * 4 - 1) << 1; // at most a quarter full
            int[] slots = new int[size];
            int[] hashes = new int[literals.length];
            for (int i = 0; i < literals.length; i++) {
                hashes[i] = literals[i].hashCode();
                int slot = hashes[i] & (size - 1);
                while (slots[slot] != 0) slot = (slot + 1) & (size - 1);
                slots[slot] = i + 1;
            }
            return new LiteralTable(slots, hashes, size - 1);
        }

        int find(String[] literals, String path, int start, int end) {
            int hash = 0;
            for (int i = start; i < end; i++) hash = 31 * hash + path.charAt(i);
            int length = end - start;
            for (int slot = hash & mask; slots[slot] != 0; slot = (slot + 1) & mask) {
                int index = slots[slot] - 1;
                if (hashes[index] == hash && literals[index].length() == length && path.regionMatches(start, literals[index], 0, length)) {
                    return index;
                }
            }
            return -1;
        }
    }
}
