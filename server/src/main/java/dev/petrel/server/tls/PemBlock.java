package dev.petrel.server.tls;

import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code -----BEGIN label----- ... -----END label-----} block of a PEM file (RFC 7468), with
 * the RFC 1421 headers that OpenSSL still writes for encrypted traditional keys
 * ({@code Proc-Type: 4,ENCRYPTED}). Text outside blocks is ignored, as OpenSSL ignores it: files
 * made with {@code openssl x509 -text} start with a human-readable dump.
 *
 * <p>JDK 25 has a PEM API ({@code java.security.PEMDecoder}, JEP 470), but it is a preview
 * feature that would need {@code --enable-preview} at build and run time, so these few lines
 * parse PEM instead.
 *
 * @param label the label, e.g. {@code CERTIFICATE} or {@code RSA PRIVATE KEY}
 * @param headers RFC 1421 headers, usually none
 * @param der the decoded Base64 body
 */
record PemBlock(String label, Map<String, String> headers, byte[] der) {
    private static final String BEGIN = "-----BEGIN ";
    private static final String END = "-----END ";
    private static final String DASHES = "-----";

    /** True when an RFC 1421 header marks the body as encrypted. */
    boolean encrypted() {
        String procType = headers.get("Proc-Type");
        return procType != null && procType.contains("ENCRYPTED");
    }

    /**
     * Every block in {@code text}, in order.
     *
     * @throws IllegalArgumentException with a short reason when a block is malformed
     */
    static List<PemBlock> parseAll(String text) {
        List<PemBlock> blocks = new ArrayList<>();
        String label = null;
        Map<String, String> headers = new LinkedHashMap<>();
        StringBuilder body = new StringBuilder();
        int lineNumber = 0;
        for (String raw : text.split("\r?\n|\r")) {
            lineNumber++;
            String line = raw.strip();
            if (label == null) {
                if (line.startsWith(BEGIN) && line.endsWith(DASHES) && line.length() > BEGIN.length() + DASHES.length()) {
                    label = line.substring(BEGIN.length(), line.length() - DASHES.length());
                    headers = new LinkedHashMap<>();
                    body.setLength(0);
                }
            } else if (line.startsWith(END)) {
                String endLabel = line.substring(END.length(), Math.max(END.length(), line.length() - DASHES.length()));
                if (!endLabel.equals(label)) {
                    throw new IllegalArgumentException("line " + lineNumber + ": END " + endLabel + " does not close BEGIN " + label);
                }
                blocks.add(new PemBlock(label, Map.copyOf(headers), decode(body, label)));
                label = null;
            } else if (body.isEmpty() && line.indexOf(':') > 0) {
                int colon = line.indexOf(':');
                headers.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
            } else {
                body.append(line);
            }
        }
        if (label != null) throw new IllegalArgumentException("BEGIN " + label + " has no END line");
        return blocks;
    }

    private static byte[] decode(CharSequence base64, String label) {
        try {
            return Base64.getDecoder().decode(base64.toString());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the " + label + " block is not valid Base64", e);
        }
    }
}
