package dev.petrel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The JDK system properties that README, docs/ and the server's own messages tell users to set
 * ({@code -Djdk.…}) exist in the JDK the server runs on: each is a string constant in one of its
 * classes. A misremembered name is silently ignored by the JVM, so nothing else would say so.
 */
class JdkPropertyNamesTest {
    private static final Pattern NAMED = Pattern.compile("-D(jdk\\.[A-Za-z0-9_.]*[A-Za-z0-9_])");

    @Test
    void everyJdkPropertyNamedIsOneTheJdkReads() throws IOException {
        Map<String, String> named = new TreeMap<>(); // name: where it is named first
        List<Path> sources = new ArrayList<>(List.of(Path.of("..", "README.md")));
        try (Stream<Path> docs = Files.walk(Path.of("..", "docs")); Stream<Path> main = Files.walk(Path.of("src", "main", "java"))) {
            docs.filter(p -> p.toString().endsWith(".md")).forEach(sources::add);
            main.filter(p -> p.toString().endsWith(".java")).forEach(sources::add);
        }
        for (Path source : sources) {
            Matcher name = NAMED.matcher(Files.readString(source));
            while (name.find()) named.putIfAbsent(name.group(1), source.toString());
        }
        assertThat(named).as("README names JDK properties (jdk.pollerMode, the TLS ones)").hasSizeGreaterThanOrEqualTo(2);

        Set<String> unknown = new TreeSet<>(named.keySet());
        try (FileSystem jrt = FileSystems.newFileSystem(URI.create("jrt:/"), Map.of());
             Stream<Path> classes = Files.walk(jrt.getPath("/modules"))) {
            for (Path type : (Iterable<Path>) classes.filter(p -> p.toString().endsWith(".class"))::iterator) {
                if (unknown.isEmpty()) break;
                byte[] bytes = Files.readAllBytes(type);
                unknown.removeIf(property -> holdsConstant(bytes, property));
            }
        }
        assertThat(unknown).as("JDK properties named (and where) that no class of JDK %s reads: %s",
                Runtime.version(), named).isEmpty();
    }

    /** Whether a class file's constant pool holds {@code text} as a whole string: its 2-byte length, then its bytes. */
    private static boolean holdsConstant(byte[] classFile, String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        search:
        for (int i = 2; i + utf8.length <= classFile.length; i++) {
            if (classFile[i] != utf8[0] || classFile[i - 2] != (byte) (utf8.length >> 8) || classFile[i - 1] != (byte) utf8.length) continue;
            for (int j = 1; j < utf8.length; j++) {
                if (classFile[i + j] != utf8[j]) continue search;
            }
            return true;
        }
        return false;
    }
}
