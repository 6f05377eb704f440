package dev.petrel.bench.lab;

import dev.petrel.server.config.TransportKind;
import dev.petrel.testkit.TomcatDistribution;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The tomcat scenario's standalone Tomcat: a fresh {@code CATALINA_BASE} under
 * {@code bench/target/lab-catalina/<server>} with the example's war as {@code ROOT.war}, Petrel's
 * jars in {@code lib/} (testkit's {@link TomcatDistribution#prepareBase}), and a {@code server.xml}
 * with an HTTP connector on the port and an HTTPS one on the next, both Tomcat's NIO or both
 * Petrel's; then {@code catalina.sh run}, which execs the JVM, so the PID the lab pins, samples
 * and stops is Tomcat's.
 */
final class StandaloneTomcat {
    private StandaloneTomcat() {}

    /** Makes the base and returns the command line that runs Tomcat on it. */
    static List<String> command(LabPaths paths, String server, int port, LabCertificate tls, TransportKind petrel) {
        Path home = paths.tomcatHome();
        if (home == null) throw new IllegalStateException("no Tomcat distribution under bench/target/tomcat-dist");
        try {
            Path base = paths.catalinaBases().resolve(server);
            delete(base);
            Path root = paths.catalinaBases().resolve("wars/ROOT.war");
            Files.createDirectories(root.getParent());
            Files.copy(paths.helloWar(), root, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            TomcatDistribution.prepareBase(home, base, connectors(port, tls, petrel), List.of(), List.of(root));
        } catch (IOException e) {
            throw new UncheckedIOException("could not make a CATALINA_BASE for " + server, e);
        }
        Path javaHome = paths.java().getParent().getParent();
        return List.of("env", "CATALINA_HOME=" + home, "CATALINA_BASE=" + paths.catalinaBases().resolve(server),
                "JAVA_HOME=" + javaHome, "CATALINA_OPTS=" + String.join(" ", ServerCatalog.JVM_OPTIONS),
                home.resolve("bin/catalina.sh").toString(), "run");
    }

    /** The {@code <Connector>} elements: HTTP on {@code port}, HTTPS on {@code port + 1} when asked. */
    static String connectors(int port, LabCertificate tls, TransportKind petrel) {
        String protocol = petrel == null ? "protocol=\"HTTP/1.1\""
                : "protocol=\"dev.petrel.tomcat.PetrelHttp11Protocol\" transport=\"" + petrel.cliName() + "\"";
        StringBuilder xml = new StringBuilder();
        xml.append("<Connector port=\"").append(port).append("\" address=\"127.0.0.1\" ").append(protocol).append("/>\n");
        if (tls != null) {
            xml.append("<Connector port=\"").append(port + 1).append("\" address=\"127.0.0.1\" ").append(protocol)
                    .append(" SSLEnabled=\"true\">\n")
                    .append("  <SSLHostConfig>\n")
                    .append("    <Certificate certificateKeystoreFile=\"").append(tls.pkcs12()).append("\" certificateKeystorePassword=\"")
                    .append(LabCertificate.PASSWORD).append("\" certificateKeyAlias=\"").append(LabCertificate.ALIAS)
                    .append("\" certificateKeystoreType=\"PKCS12\"/>\n")
                    .append("  </SSLHostConfig>\n")
                    .append("</Connector>\n");
        }
        return xml.toString();
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        List<Path> all = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(all::add);
        }
        for (Path p : all) Files.delete(p);
    }
}
