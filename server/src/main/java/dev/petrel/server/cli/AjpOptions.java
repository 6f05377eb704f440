package dev.petrel.server.cli;

import dev.petrel.ajp.AjpPackets;
import dev.petrel.server.config.AjpConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The AJP part of {@code petrel serve}'s options, shared by every AJP listener.
 *
 * @param port the first AJP listener's port
 * @param host the first AJP listener's address (each listener's {@link AjpConfig} gets its own)
 * @param secret the secret given with {@code --ajp-secret}, or null
 * @param secretFile the file given with {@code --ajp-secret-file}, or null
 * @param noSecret whether {@code --ajp-no-secret} turned the secret off
 * @param packetSize the packet size
 * @param allowedAttributes request attributes allowed besides the standard ones
 * @param askedBy the option that asked for AJP, as on the command line: {@code --ajp-port}, or
 *        {@code --listen} and the first {@code ajp://} URL; a missing secret is told to it
 */
record AjpOptions(int port, String host, String secret, Path secretFile, boolean noSecret, int packetSize,
                  List<String> allowedAttributes, String askedBy) {
    /** The environment variable holding the secret when no option gives it. */
    static final String SECRET_VARIABLE = "PETREL_AJP_SECRET";
    static final String DEFAULT_HOST = "127.0.0.1";
    static final int DEFAULT_PACKET_SIZE = AjpPackets.DEFAULT_PACKET_SIZE;

    AjpOptions {
        allowedAttributes = List.copyOf(allowedAttributes);
    }

    /** Why the AJP listener cannot start, as a user sees it on the command line. */
    static final class SetupException extends Exception {
        SetupException(String message) {
            super(message);
        }
    }

    /**
     * The listener's settings, with the secret from the option, the file, or {@code env}.
     *
     * @throws SetupException when no secret is given and it was not turned off, or the file cannot be read or is empty
     */
    AjpConfig config(Map<String, String> env) throws SetupException {
        AjpConfig config;
        if (noSecret) {
            config = AjpConfig.withoutSecret();
        } else {
            String shared = secret != null ? secret : secretFile != null ? readSecret(secretFile) : env.get(SECRET_VARIABLE);
            if (shared == null || shared.isBlank()) {
                throw new SetupException(askedBy + " needs the secret the front end sends (mod_jk worker.NAME.secret,"
                        + " mod_proxy_ajp ProxyPass ... secret=): give --ajp-secret-file FILE or " + SECRET_VARIABLE
                        + ", or --ajp-no-secret to accept requests without one");
            }
            config = AjpConfig.withSecret(shared);
        }
        return config.withHost(host).withPacketSize(packetSize).withAllowedAttributes(allowedAttributes.toArray(String[]::new));
    }

    private static String readSecret(Path file) throws SetupException {
        try {
            String first = Files.readAllLines(file).stream().findFirst().orElse("").strip();
            if (first.isEmpty()) throw new SetupException("--ajp-secret-file " + file + ": the first line is empty");
            return first;
        } catch (IOException e) {
            throw new SetupException("--ajp-secret-file " + file + ": cannot read it (" + e.getMessage() + ")");
        }
    }
}
