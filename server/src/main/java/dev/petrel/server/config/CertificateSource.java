package dev.petrel.server.config;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Where one server certificate and its private key come from: PEM files or a PKCS#12 store.
 * Sources are read when the server builds its TLS context, and again on every reload.
 */
public sealed interface CertificateSource {

    /** The files this source reads, for reload on change. */
    List<Path> files();

    /**
     * A PEM certificate chain (the server's certificate first, then intermediates) and a PEM
     * private key; both may be the same file.
     *
     * @param certificateChain the chain file
     * @param privateKey the key file
     */
    record Pem(Path certificateChain, Path privateKey) implements CertificateSource {
        /** Checks both paths are given. */
        public Pem {
            Objects.requireNonNull(certificateChain, "certificateChain");
            Objects.requireNonNull(privateKey, "privateKey");
        }

        @Override
        public List<Path> files() {
            return certificateChain.equals(privateKey) ? List.of(certificateChain) : List.of(certificateChain, privateKey);
        }
    }

    /**
     * A PKCS#12 store; every private-key entry in it becomes a certificate, in alias order. The
     * password opens both the store and its keys, as PKCS#12 tools write them.
     *
     * @param file the {@code .p12} / {@code .pfx} file
     * @param password the password, possibly empty; copied in and out
     */
    record Pkcs12(Path file, char[] password) implements CertificateSource {
        /** Checks the path and copies the password. */
        public Pkcs12 {
            Objects.requireNonNull(file, "file");
            password = password == null ? new char[0] : password.clone();
        }

        /** A copy of the password. */
        @Override
        public char[] password() {
            return password.clone();
        }

        @Override
        public List<Path> files() {
            return List.of(file);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Pkcs12 other && file.equals(other.file) && Arrays.equals(password, other.password);
        }

        @Override
        public int hashCode() {
            return file.hashCode();
        }

        /** Never shows the password. */
        @Override
        public String toString() {
            return "Pkcs12[file=" + file + "]";
        }
    }
}
