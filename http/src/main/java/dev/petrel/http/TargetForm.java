package dev.petrel.http;

/** The four forms of request-target (RFC 9112 section 3.2). */
public enum TargetForm {
    /** {@code /path?query}: the usual form. */
    ORIGIN,
    /** {@code http://host/path?query}: as sent to proxies; servers must accept it too. */
    ABSOLUTE,
    /** {@code host:port}: only with CONNECT. */
    AUTHORITY,
    /** {@code *}: only with OPTIONS. */
    ASTERISK
}
