package dev.petrel.bench.servers;

/**
 * The HTTP/2 half of the {@link Hello} contract: when the lab sets the system property
 * {@value #PROPERTY} to {@code true} (the h2 scenario), a server under test that speaks HTTP/2 also
 * takes it with prior knowledge ({@code h2c}: a client that opens with the connection preface) on its
 * HTTP port and offers {@code h2} by ALPN, before {@code http/1.1}, on its HTTPS port (when
 * {@link LabTls} asks for one), with the same answers as over HTTP/1.1. Without the property each
 * server is set up as before, so that the scenarios that measure HTTP/1.1 are unchanged. Each uses
 * its own project's HTTP/2 support; the JDK's HttpServer and the C baseline have none.
 */
public final class LabH2 {
    /** The system property that asks for HTTP/2; {@code true} or absent. */
    public static final String PROPERTY = "petrel.bench.h2";

    private LabH2() {}

    /** Whether the lab asked for HTTP/2. */
    static boolean fromSystemProperty() {
        return Boolean.parseBoolean(System.getProperty(PROPERTY, "false").strip());
    }
}
