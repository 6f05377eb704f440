package dev.petrel.server;

import java.time.Instant;
import java.util.List;

/**
 * A certificate the server presents over HTTPS, as an operator wants to see it.
 *
 * @param origin where it was loaded from (a file, or the self-signed certificate's store)
 * @param dnsNames the host names it covers
 * @param notAfter when it expires
 * @param sha256Fingerprint its SHA-256 fingerprint, in hex pairs separated by colons
 */
public record CertificateInfo(String origin, List<String> dnsNames, Instant notAfter, String sha256Fingerprint) {
    /** Copies the names. */
    public CertificateInfo {
        dnsNames = List.copyOf(dnsNames);
    }
}
