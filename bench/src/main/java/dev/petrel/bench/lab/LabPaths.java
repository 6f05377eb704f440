package dev.petrel.bench.lab;

import java.nio.file.Path;

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

    Path results() {
        return home.resolve("bench/results");
    }
}
