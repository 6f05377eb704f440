package dev.petrel.server.tls;

import dev.petrel.server.config.TlsConfigException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads a certificate or key file, turning every I/O failure into one line that names the file. */
final class TlsFiles {
    /** Larger than any real chain or key store; stops a wrong path (a log, a disk image) being read whole. */
    private static final long MAX_SIZE = 1024 * 1024;

    private TlsFiles() {}

    /**
     * The whole file.
     *
     * @param role what the file is for, e.g. "certificate file", leading the error message
     */
    static byte[] read(Path file, String role) throws TlsConfigException {
        try {
            if (Files.isDirectory(file)) throw new TlsConfigException(describe(file, role) + ": is a directory, not a file");
            if (Files.size(file) > MAX_SIZE) {
                throw new TlsConfigException(describe(file, role) + ": larger than 1 MiB, not a certificate or key file");
            }
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new TlsConfigException(describe(file, role) + ": no such file", e);
        } catch (AccessDeniedException e) {
            throw new TlsConfigException(describe(file, role) + ": permission denied", e);
        } catch (IOException e) {
            throw new TlsConfigException(describe(file, role) + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    /** "certificate file /etc/petrel/cert.pem": how every message about a file begins. */
    static String describe(Path file, String role) {
        return role + " " + file;
    }
}
