package dev.petrel.bench.lab;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one {@code openssl s_client} connection says of its TLS session: whether it was new or
 * resumed, the protocol and cipher suite, and the key exchange. The lab reads it to check
 * resumption independently of s_time: a first connection saves the session the server sent
 * ({@code -sess_out}), a second offers it ({@code -sess_in}) and says {@code Reused} when the
 * server took it.
 *
 * @param reused whether the session was resumed ({@code Reused, TLSv1.3, Cipher is ...}) rather
 *     than new ({@code New, ...})
 * @param protocol e.g. {@code TLSv1.3}
 * @param cipher e.g. {@code TLS_AES_256_GCM_SHA384}
 * @param keyExchange the server's ephemeral key, e.g. {@code X25519, 253 bits}, or {@code null}
 *     when s_client printed none
 */
record SClientOutput(boolean reused, String protocol, String cipher, String keyExchange) {
    private static final Pattern SESSION = Pattern.compile("^(New|Reused), (\\S+), Cipher is (\\S+)\\s*$", Pattern.MULTILINE);
    private static final Pattern TEMP_KEY = Pattern.compile("^Server Temp Key: (\\S.*?)\\s*$", Pattern.MULTILINE);

    /** Parses s_client's output; {@link IllegalArgumentException} when it names no session (no handshake). */
    static SClientOutput parse(String text) {
        Matcher session = SESSION.matcher(text);
        if (!session.find()) throw new IllegalArgumentException("s_client output names no session ('New, ...' or 'Reused, ...')");
        Matcher key = TEMP_KEY.matcher(text);
        return new SClientOutput(session.group(1).equals("Reused"), session.group(2), session.group(3),
                key.find() ? key.group(1) : null);
    }

    /** One line for the report, e.g. {@code Reused, TLSv1.3, TLS_AES_256_GCM_SHA384, key exchange X25519, 253 bits}. */
    String summary() {
        return (reused ? "Reused" : "New") + ", " + protocol + ", " + cipher + (keyExchange == null ? "" : ", key exchange " + keyExchange);
    }
}
