package dev.petrel.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.ajp.ForwardRequestParser;
import dev.petrel.http.RequestParser;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What each module offers its users: its API packages and nothing else, so that the engine,
 * the protocols, TLS and the transports stay free to change. Read from the compiled module
 * descriptors (the tests themselves run on the class path).
 */
class ModuleDescriptorTest {
    private static ModuleDescriptor descriptorOf(Class<?> type, String module) throws Exception {
        Path location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        return ModuleFinder.of(location).find(module).orElseThrow(() -> new AssertionError("no module " + module + " in " + location))
                .descriptor();
    }

    private static Set<String> exports(ModuleDescriptor descriptor) {
        assertThat(descriptor.exports()).as("exports to everyone, none qualified").allMatch(e -> !e.isQualified());
        return descriptor.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
    }

    @Test
    void theServerExportsItsApiOnly() throws Exception {
        ModuleDescriptor server = descriptorOf(Server.class, "dev.petrel.server");
        assertThat(exports(server)).containsExactlyInAnyOrder("dev.petrel.server", "dev.petrel.server.config", "dev.petrel.server.files",
                "dev.petrel.server.admin");
        assertThat(server.packages()).contains("dev.petrel.server.engine.exchange", "dev.petrel.server.engine.connection", "dev.petrel.server.http1", "dev.petrel.server.ajp",
                "dev.petrel.server.tls", "dev.petrel.server.transport");
        assertThat(server.opens()).isEmpty();
    }

    @Test
    void theCodecsExportTheirOnePackage() throws Exception {
        assertThat(exports(descriptorOf(RequestParser.class, "dev.petrel.http"))).containsExactly("dev.petrel.http");
        ModuleDescriptor ajp = descriptorOf(ForwardRequestParser.class, "dev.petrel.ajp");
        assertThat(exports(ajp)).containsExactly("dev.petrel.ajp");
        assertThat(ajp.requires()).anyMatch(r -> r.name().equals("dev.petrel.http")
                && r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE));
    }
}
