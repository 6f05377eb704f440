package dev.petrel.bench.model;

/**
 * A server under test, as the report names it.
 *
 * @param name short name, e.g. {@code tomcat-nio}
 * @param group whether it is Petrel, a peer, or the baseline
 * @param description e.g. {@code Tomcat 11.0.x embedded, NIO connector}
 * @param responseSample the exact response bytes it sent to {@code GET /}, as text (CRLF shown as is), or {@code null} when not captured
 */
public record ServerInfo(String name, Group group, String description, String responseSample) {
    /** Roles in the comparison: ratios are to the baseline and to the best peer. */
    public enum Group { PETREL, PEER, BASELINE }
}
