package dev.petrel.server.http2;

import dev.petrel.http.ByteSink;
import dev.petrel.http.HeaderFieldsBuilder;
import dev.petrel.http2.FieldSink;
import dev.petrel.http2.RequestFields;

/**
 * Where the HPACK decoder puts a request's fields: each is checked against RFC 9113's rules
 * ({@link RequestFields}) as it is decoded, the pseudo-headers are kept apart, and the regular
 * fields go to the stream's {@link HeaderFieldsBuilder}. {@code cookie} fields, which HTTP/2 lets a
 * client split (section 8.2.3), are joined into one with {@code "; "} as an HTTP/1.1 handler
 * expects. One per connection, used by its reader for one field section at a time.
 */
final class RequestFieldSink implements FieldSink {
    private static final byte[] COOKIE = {'c', 'o', 'o', 'k', 'i', 'e'};

    private final RequestFields rules;
    private final ByteSink cookies = new ByteSink(64);
    private HeaderFieldsBuilder target;
    private boolean anyCookie;
    private String malformed;

    /** {@code extendedConnect}: {@code :protocol} is accepted (RFC 8441), as the server announced. */
    RequestFieldSink(boolean extendedConnect) {
        this.rules = new RequestFields(extendedConnect);
    }

    /** Starts a field section whose regular fields go to {@code target}; {@code trailers}: no pseudo-header may appear. */
    void begin(HeaderFieldsBuilder target, boolean trailers) {
        this.target = target;
        target.clear();
        rules.reset(trailers);
        cookies.clear();
        anyCookie = false;
        malformed = null;
    }

    @Override
    public void field(byte[] name, int nameOffset, int nameLength, byte[] value, int valueOffset, int valueLength) {
        if (malformed != null) return; // the section is lost; the decoder still runs to keep its table in step
        String reason = rules.field(name, nameOffset, nameLength, value, valueOffset, valueLength);
        if (reason != null) {
            malformed = reason;
            return;
        }
        if (nameLength > 0 && name[nameOffset] == ':') return; // kept by the rules
        if (isCookie(name, nameOffset, nameLength)) {
            if (anyCookie) cookies.write(';').write(' ');
            cookies.write(value, valueOffset, valueLength);
            anyCookie = true;
            return;
        }
        target.add(name, nameOffset, nameLength, value, valueOffset, valueLength);
    }

    /** Ends the section: null when it is well formed, else why it is malformed (a stream error). */
    String end() {
        if (malformed != null) return malformed;
        if (anyCookie) target.add(COOKIE, 0, COOKIE.length, cookies.array(), 0, cookies.length());
        return rules.end();
    }

    /** The pseudo-headers of the section just ended. */
    RequestFields pseudo() {
        return rules;
    }

    private static boolean isCookie(byte[] name, int off, int len) {
        if (len != COOKIE.length) return false;
        for (int i = 0; i < len; i++) {
            if (name[off + i] != COOKIE[i]) return false;
        }
        return true;
    }
}
