package dev.petrel.springboot;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Collections;
import org.springframework.boot.ssl.SslBundle;

/**
 * A Spring Boot SSL bundle's keys, or its trusted certificates, as a PKCS#12 file Petrel can read:
 * Boot hands over a loaded {@link KeyStore} (from PEM or a store, on the class path or not),
 * Petrel's TLS reads files. Written readable by the owner only, under a random password, and
 * deleted when the JVM exits.
 */
record BundleKeyStoreFile(Path path, char[] password) {
    static final Path FOLDER = Path.of(System.getProperty("java.io.tmpdir"));

    static BundleKeyStoreFile write(SslBundle bundle) throws IOException {
        KeyStore source = bundle.getStores().getKeyStore();
        if (source == null) throw new IOException("the SSL bundle has no key store");
        String storePassword = bundle.getStores().getKeyStorePassword();
        String keyPassword = bundle.getKey().getPassword();
        char[] sourceKeyPassword = (keyPassword != null ? keyPassword : storePassword != null ? storePassword : "").toCharArray();
        char[] password = randomPassword();
        try {
            KeyStore target = KeyStore.getInstance("PKCS12");
            target.load(null, null);
            String only = bundle.getKey().getAlias();
            for (String alias : Collections.list(source.aliases())) {
                if (!source.isKeyEntry(alias) || only != null && !only.equals(alias)) continue;
                Key key = source.getKey(alias, sourceKeyPassword);
                target.setKeyEntry(alias, key, password, source.getCertificateChain(alias));
            }
            if (target.size() == 0) throw new IOException("the SSL bundle's key store holds no private key");
            return store(target, password);
        } catch (GeneralSecurityException e) {
            throw new IOException("could not copy the SSL bundle's keys: " + e.getMessage(), e);
        }
    }

    /** The bundle's trust store (what client certificates must chain to), or {@code null} when it has none. */
    static BundleKeyStoreFile writeTrust(SslBundle bundle) throws IOException {
        KeyStore source = bundle.getStores().getTrustStore();
        if (source == null) return null;
        char[] password = randomPassword();
        try {
            KeyStore target = KeyStore.getInstance("PKCS12");
            target.load(null, null);
            for (String alias : Collections.list(source.aliases())) {
                if (source.isCertificateEntry(alias)) target.setCertificateEntry(alias, source.getCertificate(alias));
            }
            if (target.size() == 0) throw new IOException("the SSL bundle's trust store holds no certificate");
            return store(target, password);
        } catch (GeneralSecurityException e) {
            throw new IOException("could not copy the SSL bundle's trusted certificates: " + e.getMessage(), e);
        }
    }

    private static char[] randomPassword() {
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random).toCharArray();
    }

    private static BundleKeyStoreFile store(KeyStore store, char[] password) throws IOException, GeneralSecurityException {
        Path file = Files.createTempFile(FOLDER, "petrel-ssl-bundle-", ".p12",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        file.toFile().deleteOnExit();
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, password);
        }
        return new BundleKeyStoreFile(file, password);
    }
}
