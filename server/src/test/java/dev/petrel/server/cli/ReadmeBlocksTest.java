package dev.petrel.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import dev.petrel.server.Version;
import java.io.File;
import java.io.IOException;
import java.io.StringReader;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cheap half of "README and docs/ work when copy-pasted", run by {@code ./mvnw verify}: how the pages
 * mark their runnable blocks, and what a block must be to work pasted. {@code scripts/readme-check.sh}
 * runs the marked blocks for real in a fresh clone.
 */
class ReadmeBlocksTest {
    private static final Path ROOT = Path.of("..");
    private static final MarkdownBlocks PAGES = MarkdownBlocks.ofProjectPages(ROOT);

    @Test
    void everyRunnableMarkStandsRightBeforeAShellBlock() {
        List<MarkdownBlocks.Block> marked = PAGES.blocks().stream().filter(b -> b.mark() != null).toList();
        assertThat(marked).as("the pages' marked blocks (the check would run none)").hasSizeGreaterThan(5);
        assertThat(PAGES.strayMarks()).as("runnable marks not on the line right before a fence").isEmpty();
        for (MarkdownBlocks.Block block : marked) {
            assertThat(block.language()).as("%s is marked runnable, so it must be a ```sh block", block).isEqualTo("sh");
            assertThat(block.mark()).as("%s: the mark is <!-- runnable --> or <!-- runnable: serves -->", block)
                    .matches("|:\\s*serves");
            assertThat(block.body()).as("%s is empty", block).isNotEmpty();
        }
    }

    /** java.util.Properties (and Spring Boot) read a '#' after a value as part of it: comments go on lines of their own. */
    @Test
    void noPropertiesBlockHasACommentAfterAValue() throws IOException {
        List<MarkdownBlocks.Block> properties = PAGES.blocks().stream().filter(b -> b.language().equals("properties")).toList();
        assertThat(properties).as("the pages' properties blocks").hasSizeGreaterThanOrEqualTo(2);
        for (MarkdownBlocks.Block block : properties) {
            Properties read = new Properties();
            read.load(new StringReader(block.text()));
            assertThat(read).as("%s, as java.util.Properties reads it", block).isNotEmpty();
            read.forEach((key, value) -> assertThat((String) value)
                    .as("%s: the value of %s holds what was meant as a comment", block, key).doesNotContainPattern("\\s#"));
        }
    }

    /**
     * The Tomcat recipe, run as written in a tree that holds every jar the build makes (each module's
     * jar and its -sources, -javadoc and -tests twins), with {@code ./mvnw} a no-op: Tomcat's lib/
     * gets the jar of every Petrel module petrel-tomcat needs at run time and nothing else.
     */
    @Test
    void theTomcatRecipeCopiesTheJarOfEveryModuleTheConnectorNeedsAndNoOther(@TempDir Path tree) throws Exception {
        MarkdownBlocks.Block recipe = PAGES.blocks().stream()
                .filter(b -> b.language().equals("sh") && b.text().contains("$CATALINA_BASE/lib/")).findFirst()
                .orElseThrow(() -> new AssertionError("no sh block copies Petrel's jars into $CATALINA_BASE/lib/ (docs/tomcat.md's recipe)"));
        String version = Version.get();
        assertThat(version).as("the build's version").isNotEqualTo("unknown");

        Set<String> needed = new TreeSet<>(petrelModulesTheServerNeeds());
        needed.add("server");
        needed.add("tomcat"); // the connector itself, on petrel-server (tomcat-embed-core is Tomcat's own)
        assertThat(needed).as("read from the module descriptors").contains("http", "ajp");

        Set<String> modules = new TreeSet<>(needed);
        modules.addAll(List.of("metrics", "tls-native", "spring-boot", "testkit")); // jars the recipe must leave out
        for (String module : modules) {
            Path target = Files.createDirectories(tree.resolve(module).resolve("target"));
            for (String suffix : new String[] {"", "-sources", "-javadoc", "-tests"}) {
                Files.writeString(target.resolve("petrel-" + module + "-" + version + suffix + ".jar"), "a jar");
            }
        }
        Path mvnw = Files.writeString(tree.resolve("mvnw"), "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(mvnw, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path lib = Files.createDirectories(tree.resolve("catalina-base/lib"));

        ProcessBuilder bash = new ProcessBuilder("bash", "-e", "-o", "pipefail", "-c", recipe.text())
                .directory(tree.toFile()).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        bash.environment().put("CATALINA_BASE", tree.resolve("catalina-base").toString());
        Process process = bash.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("%s ran with: %s", recipe, output).isZero();

        Set<String> copied = new TreeSet<>();
        try (Stream<Path> files = Files.list(lib)) {
            files.forEach(f -> copied.add(f.getFileName().toString()));
        }
        assertThat(copied).as("%s puts in Tomcat's lib/", recipe)
                .containsExactlyInAnyOrderElementsOf(needed.stream().map(m -> "petrel-" + m + "-" + version + ".jar").toList());
    }

    /** The Petrel modules petrel-server requires, directly or through another, by folder name (dev.petrel.http2: http2). */
    private static Set<String> petrelModulesTheServerNeeds() throws Exception {
        List<Path> locations = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            boolean exploded = Files.isRegularFile(path.resolve("module-info.class"));
            boolean petrelJar = path.getFileName().toString().matches("petrel-.*\\.jar");
            if (exploded || petrelJar) locations.add(path);
        }
        locations.add(Path.of(Server.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        ModuleFinder finder = ModuleFinder.of(locations.toArray(Path[]::new));
        Set<String> needed = new TreeSet<>();
        Deque<String> toRead = new ArrayDeque<>(List.of("dev.petrel.server"));
        while (!toRead.isEmpty()) {
            String name = toRead.pop();
            ModuleDescriptor descriptor = finder.find(name).map(ModuleReference::descriptor)
                    .orElseThrow(() -> new AssertionError("module " + name + " is not on the test's class path"));
            for (ModuleDescriptor.Requires requires : descriptor.requires()) {
                String required = requires.name();
                if (!required.startsWith("dev.petrel.")) continue;
                if (needed.add(required.substring("dev.petrel.".length()))) toRead.push(required);
            }
        }
        return needed;
    }
}
