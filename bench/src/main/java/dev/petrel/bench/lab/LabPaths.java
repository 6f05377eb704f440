package dev.petrel.bench.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Where the lab finds what it runs and where it writes.
 *
 * @param home the Petrel checkout
 * @param java the JDK's java launcher, the same for every JVM server
 */
record LabPaths(Path home, Path java) {
    Path libraries() {
        return home.resolve("bench/target/lib");
    }

    Path baselineSource() {
        return home.resolve("bench/baseline/dummy.c");
    }

    Path baselineBinary() {
        return home.resolve("bench/target/baseline/dummy");
    }

    /** The C floor of the websocket scenario, built beside the other ({@link BaselineBuild}). */
    Path webSocketFloorSource() {
        return home.resolve("bench/baseline/ws-echo.c");
    }

    Path webSocketFloorBinary() {
        return home.resolve("bench/target/baseline/ws-echo");
    }

    Path page() {
        // the demo site's article: the page every server sends in the single-cpu scenario
        return home.resolve("server/src/main/resources/dev/petrel/server/demo/site/article.html");
    }

    /** Where the lab certificate is made once and reused ({@link LabCertificate}). */
    Path tls() {
        return home.resolve("bench/target/lab-tls");
    }

    /** The lab JDK's keytool, which makes the lab certificate. */
    Path keytool() {
        return java.resolveSibling("keytool");
    }

    /** The Spring Boot HelloWorld as an executable jar (module examples/spring-boot). */
    Path helloJar() {
        return home.resolve("examples/spring-boot/target/hello.jar");
    }

    /** The same application as a war, for a standalone Tomcat. */
    Path helloWar() {
        return home.resolve("examples/spring-boot/target/hello.war");
    }

    /** Tomcat's distribution, as the bench build unpacks it, or {@code null} when it is not there. */
    Path tomcatHome() {
        Path dist = home.resolve("bench/target/tomcat-dist");
        try (Stream<Path> dirs = Files.list(dist)) {
            return dirs.filter(d -> d.getFileName().toString().startsWith("apache-tomcat-")
                    && Files.isExecutable(d.resolve("bin/catalina.sh"))).findFirst().orElse(null);
        } catch (IOException notUnpacked) {
            return null;
        }
    }

    /** Where the lab makes a {@code CATALINA_BASE} for each standalone Tomcat it runs. */
    Path catalinaBases() {
        return home.resolve("bench/target/lab-catalina");
    }

    Path results() {
        return home.resolve("bench/results");
    }
}
