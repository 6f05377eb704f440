package dev.petrel.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The arrows docs/ARCHITECTURE.md draws between Petrel's packages, checked on the compiled
 * classes of every product module: an arrow it forbids fails here, naming each class that draws
 * it. The codecs know no server, the public API does not reach into the engine, the engine's
 * connection layer knows no exchange, the engine and TLS know no transport, and no product code
 * knows the lab.
 */
class ArchitectureTest {
    /** One class file of each product module, by which the module is found on the class path. */
    private static final List<String> MODULES = List.of(
            "dev/petrel/http/RequestParser.class",
            "dev/petrel/http2/FrameReader.class",
            "dev/petrel/ajp/ForwardRequestParser.class",
            "dev/petrel/server/Server.class",
            "dev/petrel/metrics/PrometheusExporter.class",
            "dev/petrel/nativetls/NativeTlsProvider.class",
            "dev/petrel/tomcat/PetrelProtocol.class",
            "dev/petrel/springboot/PetrelAutoConfiguration.class");

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
        List<String> arrows = new ArrayList<>();
        references.forEach((source, targets) -> {
            if (!from.test(PackageArrows.packageOf(source))) return;
            for (String target : targets) {
                if (to.test(PackageArrows.packageOf(target))) arrows.add(source + " -> " + target);
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
}
