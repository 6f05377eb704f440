package dev.petrel.bench.servers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What every HelloWorld server under test shares: the contract's two answers, the arguments
 * ({@code PORT [MODE]}), quiet logging and running until SIGTERM.
 *
 * <p>The contract: {@code /page} answers 200 with {@link #page()} as {@code text/html;charset=UTF-8};
 * every other path, whatever the method, answers 200 with the 10 bytes {@code HelloWorld} as
 * {@code text/plain;charset=UTF-8}. Both carry a Content-Length. Each server binds
 * {@value #HOST} only and keeps its own defaults otherwise.
 *
 * <p>HTTPS: when the lab sets the system property {@value LabTls#PROPERTY} (the folder of the lab
 * certificate), every server except the C baseline also answers the same contract over HTTPS on
 * {@code PORT + 1}, with the lab's certificate and otherwise its own TLS defaults (the protocols and
 * cipher suites it enables by default; JSSE, unless its arguments name another engine: Petrel's
 * {@code tls-engine=native}, Netty's {@code openssl}, both BoringSSL). Without the property it
 * listens for HTTP only, as the scenarios that measure plain HTTP want. See {@link LabTls}.
 *
 * <p>AJP: Petrel and Tomcat also answer the contract over AJP/1.3 on the port the system property
 * {@value LabAjp#PROPERTY} names, requiring the lab's secret. See {@link LabAjp}.
 */
final class Hello {
    /** The only address a server under test binds. */
    static final String HOST = "127.0.0.1";
    /** The path that answers the page. */
    static final String PAGE_PATH = "/page";
    /** The body for every other path. */
    static final String HELLO_TEXT = "HelloWorld";
    static final byte[] HELLO = HELLO_TEXT.getBytes(StandardCharsets.US_ASCII);
    static final String TEXT_TYPE = "text/plain;charset=UTF-8";
    static final String HTML_TYPE = "text/html;charset=UTF-8";

    private static final String PAGE_RESOURCE = "/dev/petrel/server/demo/site/article.html"; // from petrel-server

    private Hello() {}

    /** The page's bytes, read from the class path; call once at start. */
    static byte[] page() {
        try (InputStream in = Hello.class.getResourceAsStream(PAGE_RESOURCE)) {
            if (in == null) throw new IllegalStateException("missing resource " + PAGE_RESOURCE);
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The port from {@code args[0]}; exits with usage when it is missing or invalid. */
    static int port(String[] args, String usage) {
        if (args.length < 1) usage(usage);
        try {
            int port = Integer.parseInt(args[0]);
            if (port < 1 || port > 65535) usage(usage);
            return port;
        } catch (NumberFormatException e) {
            usage(usage);
            return -1; // not reached
        }
    }

    /** The mode from {@code args[1]}, one of {@code modes}; exits with usage otherwise. */
    static String mode(String[] args, String usage, String... modes) {
        if (args.length < 2) usage(usage);
        String mode = args[1].toLowerCase(Locale.ROOT);
        if (!List.of(modes).contains(mode)) {
            System.err.println("unknown mode '" + args[1] + "' (choose from " + String.join(", ", Arrays.asList(modes)) + ")");
            usage(usage);
        }
        return mode;
    }

    /** Says in one line why this server cannot run on this machine, and exits ({@link LabUnavailable}). */
    static void unavailable(String reason) {
        System.err.println(LabUnavailable.PREFIX + reason);
        System.exit(LabUnavailable.EXIT);
    }

    private static void usage(String usage) {
        System.err.println("usage: " + usage);
        System.exit(2);
    }

    /**
     * Raises java.util.logging to WARNING. Tomcat, Helidon, Undertow (jboss-logging), Netty and
     * Vert.x log there by default, and Jetty through SLF4J bridged to it; their start-up INFO lines
     * go, their warnings stay. Call first, before a framework class loads.
     */
    static void quietLogging() {
        Logger root = Logger.getLogger("");
        root.setLevel(Level.WARNING);
        for (Handler handler : root.getHandlers()) handler.setLevel(Level.WARNING);
    }

    /**
     * Blocks the main thread until the JVM is stopped. SIGTERM runs the shutdown hooks (none of ours)
     * and halts, however many server threads are still running.
     */
    static void runUntilTerminated(String name, int port, LabTls tls) throws InterruptedException {
        runUntilTerminated(name, port, tls, -1);
    }

    /** {@link #runUntilTerminated(String, int, LabTls)} for a server that also speaks AJP on {@code ajpPort} (when above 0). */
    static void runUntilTerminated(String name, int port, LabTls tls, int ajpPort) throws InterruptedException {
        System.err.println(name + " listening on http://" + HOST + ":" + port + "/"
                + (tls == null ? "" : " and https://" + HOST + ":" + tls.port() + "/")
                + (ajpPort > 0 ? " and ajp://" + HOST + ":" + ajpPort + "/ (secret required)" : ""));
        Thread.currentThread().join();
    }
}
