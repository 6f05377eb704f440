package dev.petrel.server.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How connections get threads. Every kind runs the same protocol engine; only the moving of
 * bytes and the threading differ.
 */
public enum TransportKind {
    /** One platform thread per connection from a bounded pool (Tomcat's BIO). Default limit: 200 connections. */
    BLOCKING(200),
    /** One virtual thread per connection: blocking code at the cost of a few KiB per connection. Default limit: 10,000. */
    VIRTUAL(10_000),
    /**
     * Selector event loops, one per core, with non-blocking sockets (Tomcat's NIO): a connection
     * waiting for its next request holds no thread, and each request's handler runs on a virtual
     * thread. Default limit: 10,000.
     */
    NIO(10_000);

    private final int defaultMaxConnections;

    TransportKind(int defaultMaxConnections) {
        this.defaultMaxConnections = defaultMaxConnections;
    }

    /** The connection limit used when none is configured. */
    public int defaultMaxConnections() {
        return defaultMaxConnections;
    }

    /** The name used on the command line, e.g. {@code virtual}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind named {@code name} on the command line; {@link IllegalArgumentException} with the valid names otherwise. */
    public static TransportKind fromCliName(String name) {
        for (TransportKind kind : values()) {
            if (kind.cliName().equals(name)) return kind;
        }
        throw new IllegalArgumentException("unknown transport '" + name + "' (choose from " + names() + ")");
    }

    /** The command-line names, comma-separated. */
    public static String names() {
        return Arrays.stream(values()).map(TransportKind::cliName).collect(Collectors.joining(", "));
    }
}
