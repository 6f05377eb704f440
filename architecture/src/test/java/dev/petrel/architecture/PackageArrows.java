package dev.petrel.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.Utf8Entry;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which Petrel class refers to which other Petrel class, read from compiled class files with the
 * JDK's class-file API: every class named in a class's constant pool, and every class a field,
 * method or generic signature names. No class is loaded, so a module's own dependencies (Tomcat,
 * Netty, Spring) need not be present. Classes are read from a module's classes folder or jar,
 * found as the test class path holds it.
 */
final class PackageArrows {
    private static final Pattern TYPE_IN_DESCRIPTOR = Pattern.compile("L(dev/petrel/[\\w/$]+)[;<]");

    /** Class name to the Petrel classes it refers to (binary names with dots; nested classes kept apart). */
    private final Map<String, Set<String>> references = new TreeMap<>();

    /**
     * Reads every class of the module that holds the class file {@code anchor} (e.g.
     * {@code dev/petrel/server/Server.class}), found on the class path.
     */
    void readModuleOf(String anchor) {
        URL url = ClassLoader.getSystemResource(anchor);
        if (url == null) {
            throw new IllegalStateException(anchor + " is not on the test class path: build the product modules first"
                    + " (./mvnw install -DskipTests, or run this module in the reactor)");
        }
        try {
            if (url.getProtocol().equals("jar")) {
                Path jar = Path.of(new URL(url.getPath().substring(0, url.getPath().indexOf("!/"))).toURI());
                try (FileSystem zip = FileSystems.newFileSystem(jar)) {
                    readTree(zip.getPath("/"));
                }
            } else {
                Path file = Path.of(url.toURI());
                Path root = file;
                for (int i = 0; i < anchor.split("/").length; i++) root = root.getParent();
                readTree(root);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private void readTree(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                if (file.getFileName().toString().equals("module-info.class")) continue;
                read(ClassFile.of().parse(Files.readAllBytes(file)));
            }
        }
    }

    private void read(ClassModel model) {
        String self = model.thisClass().asInternalName().replace('/', '.');
        Set<String> targets = references.computeIfAbsent(self, k -> new TreeSet<>());
        for (PoolEntry entry : model.constantPool()) {
            switch (entry) {
                case ClassEntry type -> add(targets, elementType(type.asInternalName()));
                case Utf8Entry text -> {
                    Matcher m = TYPE_IN_DESCRIPTOR.matcher(text.stringValue());
                    while (m.find()) add(targets, m.group(1));
                }
                default -> { }
            }
        }
        targets.remove(self);
    }

    /** The class an array type's internal name is of ({@code [Ldev/petrel/X;} is {@code dev/petrel/X}). */
    private static String elementType(String internalName) {
        if (!internalName.startsWith("[")) return internalName;
        Matcher m = TYPE_IN_DESCRIPTOR.matcher(internalName);
        return m.find() ? m.group(1) : internalName;
    }

    private static void add(Set<String> targets, String internalName) {
        if (internalName.startsWith("dev/petrel/")) targets.add(internalName.replace('/', '.'));
    }

    /** Every class read, with the Petrel classes it refers to. */
    Map<String, Set<String>> references() {
        return references;
    }

    /** The package of a binary class name. */
    static String packageOf(String className) {
        return className.substring(0, className.lastIndexOf('.'));
    }
}
