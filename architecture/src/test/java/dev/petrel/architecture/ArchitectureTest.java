package dev.petrel.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The arrows docs/ARCHITECTURE.md draws between Petrel's packages, checked on the compiled
 * classes of every product module: an arrow it forbids fails here, naming each class that draws
 * it. The codecs know no server, the public API is built on no implementation but the handler
 * helpers, the engine's connection layer knows no exchange, the engine and TLS know no transport,
 * no product code knows the lab, and no packages form a cycle.
 */
class ArchitectureTest {
    /** One class file of each product module, by which the module is found on the class path. */
    private static final List<String> MODULES = List.of(
            "dev/petrel/http/RequestParser.class",
            "dev/petrel/http2/FrameReader.class",
            "dev/petrel/websocket/MessageDecoder.class",
            "dev/petrel/ajp/ForwardRequestParser.class",
            "dev/petrel/server/Server.class",
            "dev/petrel/metrics/PrometheusExporter.class",
            "dev/petrel/nativetls/NativeTlsProvider.class",
            "dev/petrel/tomcat/PetrelProtocol.class",
            "dev/petrel/springboot/PetrelAutoConfiguration.class");

    /** The class that assembles a server: the top of the package graph, a node of its own. */
    private static final String ENTRY = "dev.petrel.server.Server";

    private static Map<String, Set<String>> references;

    @BeforeAll
    static void readEveryModule() {
        PackageArrows arrows = new PackageArrows();
        MODULES.forEach(arrows::readModuleOf);
        references = arrows.references();
    }

    @Test
    void theCodecsKnowNothingButTheJdkAndTheHttpCodec() {
        assertNoArrow(in("dev.petrel.http", "dev.petrel.http2", "dev.petrel.ajp"),
                to -> !in("dev.petrel.http", "dev.petrel.http2", "dev.petrel.ajp").test(to));
        assertNoArrow(in("dev.petrel.http"), in("dev.petrel.http2", "dev.petrel.ajp"));
        assertNoArrow(in("dev.petrel.websocket"), to -> !in("dev.petrel.websocket").test(to));
    }

    /** What a handler sees (Request, Response, Router, the settings, static files) is built on the engine, never the other way. */
    @Test
    void thePublicApiDoesNotReachIntoTheEngine() {
        assertNoArrow(exactly("dev.petrel.server", "dev.petrel.server.config", "dev.petrel.server.files"), in("dev.petrel.server.engine"));
    }

    /** The exchange is built on the transport seam (endpoints, protocol connections, the hand-over), never the other way. */
    @Test
    void theConnectionLayerKnowsNoExchange() {
        assertNoArrow(in("dev.petrel.server.engine.connection"), in("dev.petrel.server.engine.exchange"));
    }

    /**
     * The API sits at the bottom: the implementation is built on it, so it is built on nothing of
     * the implementation but the helpers of {@code handler}, which know no other package. The class
     * {@code Server}, which assembles the implementation, and {@code admin}, which takes a
     * {@code Server}, stand above it instead.
     */
    @Test
    void theApiIsBuiltOnNoImplementationButTheHandlerHelpers() {
        Predicate<String> api = exactly("dev.petrel.server", "dev.petrel.server.config", "dev.petrel.server.files");
        assertNoClassArrow(source -> api.test(PackageArrows.packageOf(source)) && !nodeOf(source).equals(nodeOf(ENTRY)),
                target -> in("dev.petrel.server").test(PackageArrows.packageOf(target))
                        && !api.test(PackageArrows.packageOf(target)) && !PackageArrows.packageOf(target).equals("dev.petrel.server.handler"));
        assertNoArrow(exactly("dev.petrel.server.handler"), to -> in("dev.petrel").test(to) && !to.equals("dev.petrel.server.handler"));
    }

    /**
     * {@code Server} is the API's face of a running server: it builds one through the internal
     * assembly and never wires a transport, a TLS context, a protocol or an observer itself.
     */
    @Test
    void theServerReachesTheImplementationOnlyThroughTheAssembly() {
        Predicate<String> allowed = exactly("dev.petrel.server", "dev.petrel.server.config", "dev.petrel.server.assembly");
        assertNoClassArrow(source -> nodeOf(source).equals(nodeOf(ENTRY)),
                target -> in("dev.petrel.server").test(PackageArrows.packageOf(target)) && !allowed.test(PackageArrows.packageOf(target)));
    }

    @Test
    void theEngineKnowsNoTransport() {
        assertNoArrow(in("dev.petrel.server.engine"), in("dev.petrel.server.transport"));
    }

    /** TLS is a step of the selection chain over any endpoint: it must not know which transport moves the bytes. */
    @Test
    void tlsKnowsNoTransport() {
        assertNoArrow(in("dev.petrel.server.tls", "dev.petrel.nativetls"), in("dev.petrel.server.transport"));
    }

    @Test
    void noProductCodeKnowsTheLab() {
        assertNoArrow(in("dev.petrel"), in("dev.petrel.bench", "dev.petrel.microbench"));
    }

    /**
     * The packages form no cycle: each one can be read knowing only those below it. The class
     * {@link #ENTRY} (with its nested classes) is a node of its own, apart from the rest of its
     * package: it assembles the implementation, so it is the top of the graph, while the rest of
     * {@code dev.petrel.server} is the API everything else is built on. A failure lists each cycle
     * (a strongly connected component), the shortest ways round it, and the arrows between its
     * members class by class, the one that closes the most ways first.
     */
    @Test
    void noPackageCycles() {
        assertThat(describe(cycles(references))).as("package cycles").isEmpty();
    }

    /** The cycle check finds a cycle through the API, and lets Server reach anything while nothing reaches back. */
    @Test
    void theCycleCheckSeesACycleAndServerIsItsOwnNode() {
        Map<String, Set<String>> classes = Map.of(
                ENTRY, Set.of("dev.petrel.server.a.A"),
                ENTRY + "$Builder", Set.of("dev.petrel.server.Handler"),
                "dev.petrel.server.a.A", Set.of("dev.petrel.server.Handler"),
                "dev.petrel.server.Handler", Set.of(),
                "dev.petrel.server.b.B", Set.of("dev.petrel.server.c.C"),
                "dev.petrel.server.c.C", Set.of("dev.petrel.server.b.B$Inner"));
        assertThat(cycles(classes)).singleElement().satisfies(cycle -> assertThat(cycle).isEqualTo(Map.of(
                "dev.petrel.server.b", Map.of("dev.petrel.server.c", Set.of("dev.petrel.server.b.B -> dev.petrel.server.c.C")),
                "dev.petrel.server.c", Map.of("dev.petrel.server.b", Set.of("dev.petrel.server.c.C -> dev.petrel.server.b.B$Inner")))));
        assertThat(describe(cycles(classes))).singleElement().asString()
                .contains("dev.petrel.server.b -> dev.petrel.server.c -> dev.petrel.server.b")
                .contains("dev.petrel.server.c.C -> dev.petrel.server.b.B$Inner");
        Map<String, Set<String>> backToServer = new HashMap<>(classes);
        backToServer.put("dev.petrel.server.a.A", Set.of("dev.petrel.server.Handler", ENTRY + "$Builder"));
        assertThat(cycles(backToServer)).hasSize(2);
    }

    /** The rules above read real classes: a scan that found nothing would pass them all. */
    @Test
    void theScanSeesEveryModuleAndTheArrowsItMustSee() {
        for (String anchor : MODULES) {
            String name = anchor.replace(".class", "").replace('/', '.');
            assertThat(references).as("classes read").containsKey(name);
        }
        assertThat(references.get("dev.petrel.server.transport.Listener")).as("an arrow every build has")
                .anyMatch(in("dev.petrel.server.engine"));
        assertThat(references.get("dev.petrel.http2.RequestFields")).as("a type seen only in a method descriptor")
                .contains("dev.petrel.http.RequestHead");
    }

    private static void assertNoArrow(Predicate<String> from, Predicate<String> to) {
        assertNoClassArrow(source -> from.test(PackageArrows.packageOf(source)), target -> to.test(PackageArrows.packageOf(target)));
    }

    /** As {@link #assertNoArrow}, with the classes at either end tested rather than their packages. */
    private static void assertNoClassArrow(Predicate<String> from, Predicate<String> to) {
        List<String> arrows = new ArrayList<>();
        references.forEach((source, targets) -> {
            if (!from.test(source)) return;
            for (String target : targets) {
                if (to.test(target)) arrows.add(source + " -> " + target);
            }
        });
        assertThat(arrows).as("forbidden arrows").isEmpty();
    }

    /** The packages named and those under them. */
    private static Predicate<String> in(String... packages) {
        return name -> {
            for (String p : packages) {
                if (name.equals(p) || name.startsWith(p + ".")) return true;
            }
            return false;
        };
    }

    /** The packages named, not those under them. */
    private static Predicate<String> exactly(String... packages) {
        return name -> List.of(packages).contains(name);
    }

    /** The node of the package graph a class belongs to: its package, or {@link #ENTRY} for that class and its nested classes. */
    private static String nodeOf(String className) {
        if (className.equals(ENTRY) || className.startsWith(ENTRY + "$")) return ENTRY + " (class)";
        return PackageArrows.packageOf(className);
    }

    /** Node to node to the class arrows that draw that node arrow, for the classes read. */
    private static Map<String, Map<String, Set<String>>> nodeGraph(Map<String, Set<String>> classes) {
        Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
        classes.forEach((source, targets) -> {
            String from = nodeOf(source);
            Map<String, Set<String>> out = graph.computeIfAbsent(from, k -> new TreeMap<>());
            for (String target : targets) {
                String to = nodeOf(target);
                if (to.equals(from)) continue;
                out.computeIfAbsent(to, k -> new TreeSet<>()).add(source + " -> " + target);
                graph.computeIfAbsent(to, k -> new TreeMap<>());
            }
        });
        return graph;
    }

    /** The strongly connected components of more than one node (Tarjan), each with the arrows inside it. */
    private static List<Map<String, Map<String, Set<String>>>> cycles(Map<String, Set<String>> classes) {
        Map<String, Map<String, Set<String>>> graph = nodeGraph(classes);
        List<Map<String, Map<String, Set<String>>>> cycles = new ArrayList<>();
        for (Set<String> component : new Tarjan(graph).components) {
            if (component.size() < 2) continue;
            Map<String, Map<String, Set<String>>> inside = new TreeMap<>();
            for (String from : component) {
                graph.get(from).forEach((to, arrows) -> {
                    if (component.contains(to)) inside.computeIfAbsent(from, k -> new TreeMap<>()).put(to, arrows);
                });
            }
            cycles.add(inside);
        }
        return cycles;
    }

    /**
     * Each cycle as its members, the shortest way round through each arrow inside it, then every
     * arrow inside it, class by class, those on the most of these ways first: an arrow that closes
     * them all (a back arrow) comes at the top.
     */
    private static List<String> describe(List<Map<String, Map<String, Set<String>>>> cycles) {
        List<String> lines = new ArrayList<>();
        for (Map<String, Map<String, Set<String>>> cycle : cycles) {
            StringBuilder text = new StringBuilder("cycle among " + cycle.keySet() + ":");
            Set<List<String>> ways = new TreeSet<>(Comparator.comparing((List<String> way) -> String.join(" -> ", way)));
            cycle.forEach((from, out) -> out.keySet().forEach(to -> ways.add(shortestWayRound(cycle, from, to))));
            Map<String, Integer> uses = new HashMap<>();
            for (List<String> way : ways) {
                text.append("\n    ").append(String.join(" -> ", way));
                for (int i = 0; i + 1 < way.size(); i++) uses.merge(way.get(i) + " -> " + way.get(i + 1), 1, Integer::sum);
            }
            List<String> arrows = new ArrayList<>();
            cycle.forEach((from, out) -> out.keySet().forEach(to -> arrows.add(from + " -> " + to)));
            arrows.sort(Comparator.comparing((String arrow) -> -uses.getOrDefault(arrow, 0)).thenComparing(arrow -> arrow));
            text.append("\n  the arrows, class by class:");
            for (String arrow : arrows) {
                String[] ends = arrow.split(" -> ");
                text.append("\n    ").append(arrow).append(" (on ").append(uses.getOrDefault(arrow, 0)).append(" of ")
                        .append(ways.size()).append(")");
                cycle.get(ends[0]).get(ends[1]).forEach(classArrow -> text.append("\n        ").append(classArrow));
            }
            lines.add(text.toString());
        }
        return lines;
    }

    /** The shortest way from {@code from} over its arrow to {@code to} and back, inside one cycle, begun at its least node. */
    private static List<String> shortestWayRound(Map<String, Map<String, Set<String>>> cycle, String from, String to) {
        Map<String, String> cameFrom = new HashMap<>(Map.of(to, to));
        Deque<String> queue = new ArrayDeque<>(List.of(to));
        while (!cameFrom.containsKey(from)) {
            String node = queue.remove();
            for (String next : cycle.get(node).keySet()) {
                if (cameFrom.putIfAbsent(next, node) == null) queue.add(next);
            }
        }
        List<String> way = new ArrayList<>(); // to, ..., from: each node has an arrow to the next, and from one to to
        for (String node = from; !node.equals(to); node = cameFrom.get(node)) way.addFirst(node);
        way.addFirst(to);
        int least = way.indexOf(way.stream().min(Comparator.naturalOrder()).orElseThrow());
        List<String> round = new ArrayList<>(way.subList(least, way.size()));
        round.addAll(way.subList(0, least));
        round.add(round.getFirst());
        return round;
    }

    /** Tarjan's strongly connected components, over a graph small enough to recurse on. */
    private static final class Tarjan {
        private final Map<String, Map<String, Set<String>>> graph;
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final Set<String> onStack = new TreeSet<>();
        final List<Set<String>> components = new ArrayList<>();

        Tarjan(Map<String, Map<String, Set<String>>> graph) {
            this.graph = graph;
            for (String node : graph.keySet()) {
                if (!index.containsKey(node)) visit(node);
            }
        }

        private void visit(String node) {
            index.put(node, index.size());
            low.put(node, index.get(node));
            stack.push(node);
            onStack.add(node);
            for (String next : graph.get(node).keySet()) {
                if (!index.containsKey(next)) {
                    visit(next);
                    low.put(node, Math.min(low.get(node), low.get(next)));
                } else if (onStack.contains(next)) {
                    low.put(node, Math.min(low.get(node), index.get(next)));
                }
            }
            if (low.get(node).equals(index.get(node))) {
                Set<String> component = new TreeSet<>();
                String member;
                do {
                    member = stack.pop();
                    onStack.remove(member);
                    component.add(member);
                } while (!member.equals(node));
                components.add(component);
            }
        }
    }
}
