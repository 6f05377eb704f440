package dev.petrel.server.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Runs openssl and keytool for test fixtures, failing the test with their output when they fail. */
public final class Tools {
    public static final Path OPENSSL = Path.of("/usr/bin/openssl");
    public static final Path KEYTOOL = Path.of(System.getProperty("java.home"), "bin", "keytool");

    private Tools() {}

    public static boolean hasOpenssl() {
        return Files.isExecutable(OPENSSL);
    }

    public static String openssl(Path dir, String... args) throws IOException, InterruptedException {
        return run(dir, prepend(OPENSSL.toString(), args), "");
    }

    public static String keytool(Path dir, String... args) throws IOException, InterruptedException {
        return run(dir, prepend(KEYTOOL.toString(), args), "");
    }

    /** Runs a command in {@code dir} with {@code input}; its output, after asserting it exited 0. */
    public static String run(Path dir, List<String> command, String input) throws IOException, InterruptedException {
        Result result = runAllowingFailure(dir, command, input);
        assertThat(result.exitCode()).as("%s exited %d:%n%s", command, result.exitCode(), result.output()).isZero();
        return result.output();
    }

    public record Result(int exitCode, String output) {}

    public static Result runAllowingFailure(Path dir, List<String> command, String input) throws IOException, InterruptedException {
        Path log = Files.createTempFile(dir, "tool", ".log");
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        try (var stdin = process.getOutputStream()) {
            stdin.write(input.getBytes(StandardCharsets.UTF_8));
        }
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command + " did not finish in 60 s");
        }
        String output = Files.readString(log, StandardCharsets.ISO_8859_1);
        Files.delete(log);
        return new Result(process.exitValue(), output);
    }

    private static List<String> prepend(String first, String[] rest) {
        return Stream.concat(Stream.of(first), Stream.of(rest)).toList();
    }
}
