package dev.petrel.bench.soak;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * The soak's h2c client: {@code curl --http2-prior-knowledge}, one process per request, its body on
 * standard output and its status and HTTP version on standard error ({@code -w %{stderr}...}), so
 * that the bytes are checked here as the JDK client's are. A request must also have gone over
 * HTTP/2: a server that answered h2c with HTTP/1.1 would not be soaked on h2c at all.
 */
final class Curl {
    private Curl() {}

    static SoakOutcome run(SoakRoute route, String operation, RandomGenerator random) throws InterruptedException {
        String base = "http://127.0.0.1:" + route.port();
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--http2-prior-knowledge", "--max-time",
                Long.toString(SoakClients.TIMEOUT.toSeconds()), "-o", "-", "-w", "%{stderr}%{http_code} %{http_version}"));
        byte[] upload = null;
        byte[] expected;
        int status = 200;
        switch (operation) {
            case "ping" -> {
                command.add(base + "/ping");
                expected = "pong".getBytes(StandardCharsets.US_ASCII);
            }
            case "download" -> {
                int size = SoakClients.downloadSize(random);
                long seed = random.nextLong(1, Long.MAX_VALUE);
                command.add(base + "/download?size=" + size + "&seed=" + seed);
                expected = SoakContent.bytes(seed, size);
            }
            case "range" -> {
                int from = random.nextInt(SoakClients.FILE.length - 1);
                int to = Math.min(SoakClients.FILE.length - 1, from + random.nextInt(1, 64 * 1024));
                command.addAll(List.of("-r", from + "-" + to, base + "/files/" + SoakContent.BINARY_FILE));
                expected = Arrays.copyOfRange(SoakClients.FILE, from, to + 1);
                status = 206;
            }
            case "gzip" -> {
                // curl asks for gzip and decodes it: the bytes it hands over are the page's either way
                command.addAll(List.of("--compressed", base + "/files/" + SoakContent.TEXT_FILE));
                expected = SoakClients.PAGE;
            }
            case "upload" -> {
                upload = SoakContent.bytes(random.nextLong(1, Long.MAX_VALUE), random.nextInt(0, 256 * 1024));
                String digest = SoakContent.sha256(upload);
                command.addAll(List.of("-H", SoakContent.DIGEST_HEADER + ": " + digest, "-H", "Content-Type: application/octet-stream",
                        "--data-binary", "@-", base + "/upload"));
                expected = digest.getBytes(StandardCharsets.US_ASCII);
            }
            default -> throw new IllegalArgumentException(operation);
        }
        long start = System.nanoTime();
        Process curl = null;
        try {
            curl = new ProcessBuilder(command).start();
            byte[] input = upload;
            Process running = curl;
            Thread feeder = Thread.ofVirtual().start(() -> {
                try (OutputStream in = running.getOutputStream()) {
                    if (input != null) in.write(input);
                } catch (IOException ignored) {
                    // curl exited early: its status says why
                }
            });
            byte[] body;
            byte[] err;
            try (InputStream out = curl.getInputStream(); InputStream errors = curl.getErrorStream()) {
                body = out.readAllBytes();
                err = errors.readAllBytes();
            }
            feeder.join();
            if (!curl.waitFor(SoakClients.TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS)) {
                return SoakOutcome.failed(route, operation, start, "curl did not exit");
            }
            String[] result = new String(err, StandardCharsets.UTF_8).strip().split("\\s+");
            String line = String.join(" ", result);
            if (curl.exitValue() != 0 || result.length < 2) return SoakOutcome.failed(route, operation, start, "curl: " + line);
            int got = Integer.parseInt(result[result.length - 2]);
            if (got != status) return SoakOutcome.failed(route, operation, start, "status " + got + " (" + status + " expected)");
            if (!result[result.length - 1].equals("2")) return SoakOutcome.lost(route, operation, start, "answered over HTTP/" + result[result.length - 1]);
            return SoakOutcome.compared(route, operation, start, got, body, expected);
        } catch (IOException e) {
            return SoakOutcome.failed(route, operation, start, e.toString());
        } finally {
            if (curl != null && curl.isAlive()) curl.destroyForcibly();
        }
    }
}
