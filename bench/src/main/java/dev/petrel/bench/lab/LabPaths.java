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
        return home.resolve("bench/src/main/resources/dev/petrel/bench/page.html");
    }

    Path results() {
        return home.resolve("bench/results");
    }
}
