package dev.petrel.bench.servers;

/**
 * The AJP half of the {@link Hello} contract: a server under test that can speak AJP/1.3 (Petrel,
 * Tomcat) also listens for it when the lab sets the system property {@value #PROPERTY} to the AJP
 * port (the HTTP port plus two), on {@value Hello#HOST} only, and requires {@link #SECRET} from
 * the front end on every request (Tomcat's {@code secret}, Petrel's {@code AjpConfig.withSecret}).
 * Without the property it opens no AJP listener, as the scenarios that measure HTTP want.
 *
 * <p>Public: the lab configures the front end (Apache httpd with mod_jk or mod_proxy_ajp) with the
 * same secret, and one constant cannot drift apart the way two copies can.
 */
public final class LabAjp {
    /** The system property that asks for AJP; its value is the AJP port. */
    public static final String PROPERTY = "petrel.bench.ajp";
    /** The shared secret the lab's front end sends and the backends require; a lab constant, not a credential. */
    public static final String SECRET = "petrel-lab-ajp-secret";

    private LabAjp() {}

    /** The AJP port the lab asked for, or -1 when it did not ask. */
    static int portFromSystemProperty() {
        String value = System.getProperty(PROPERTY);
        if (value == null || value.isBlank()) return -1;
        int port;
        try {
            port = Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PROPERTY + " must be a port number, not '" + value + "'");
        }
        if (port < 1 || port > 65535) throw new IllegalArgumentException(PROPERTY + " must be a port number, not " + port);
        return port;
    }
}
