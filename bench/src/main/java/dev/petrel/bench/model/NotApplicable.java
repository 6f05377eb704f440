package dev.petrel.bench.model;

/**
 * A cell that cannot have a figure by design, not by failure: for instance the C baseline, which
 * speaks no TLS, in an HTTPS variant. The report shows "not applicable" and the reason there,
 * rather than "no result" or a problem.
 *
 * @param scenario the scenario's name
 * @param variant the variant
 * @param server the server's name
 * @param reason why, in a few words, e.g. {@code the C baseline speaks no TLS}
 */
public record NotApplicable(String scenario, String variant, String server, String reason) {}
