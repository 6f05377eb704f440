package dev.petrel.server.tls;

import dev.petrel.server.config.CertificateSource;
import dev.petrel.server.config.TlsConfigException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.UnrecoverableKeyException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Reads a {@link CertificateSource} and checks what it read (see {@link CertificateChecks}). */
final class CertificateLoader {
    private static final String PKCS12_FILE = "PKCS#12 file";

    private CertificateLoader() {}

    /** The certificates of one source: one for PEM files, one per key entry of a PKCS#12 store. */
    static List<ServerCertificate> load(CertificateSource source, Instant now) throws TlsConfigException {
        return switch (source) {
            case CertificateSource.Pem pem -> List.of(loadPem(pem, now));
            case CertificateSource.Pkcs12 pkcs12 -> loadPkcs12(pkcs12.file(), pkcs12.password(), now);
        };
    }

    private static ServerCertificate loadPem(CertificateSource.Pem pem, Instant now) throws TlsConfigException {
        List<X509Certificate> chain = PemFiles.readCertificates(pem.certificateChain());
        PrivateKey key = PemFiles.readPrivateKey(pem.privateKey());
        CertificateChecks.checkKeyMatches(key, chain, TlsFiles.describe(pem.privateKey(), "key file"), pem.certificateChain().toString());
        CertificateChecks.checkValidity(chain, now, TlsFiles.describe(pem.certificateChain(), "certificate file"));
        return new ServerCertificate(pem.certificateChain().toString(), chain, key);
    }

    private static List<ServerCertificate> loadPkcs12(Path file, char[] password, Instant now) throws TlsConfigException {
        String where = TlsFiles.describe(file, PKCS12_FILE);
        byte[] bytes = TlsFiles.read(file, PKCS12_FILE);
        KeyStore store = open(bytes, password, where);
        List<ServerCertificate> certificates = new ArrayList<>();
        try {
            List<String> aliases = Collections.list(store.aliases());
            Collections.sort(aliases); // PKCS#12 has no order; sorting makes "the first" the same on every load
            for (String alias : aliases) {
                if (!store.isKeyEntry(alias)) continue;
                String entryWhere = where + " (alias '" + alias + "')";
                Key key;
                try {
                    key = store.getKey(alias, password);
                } catch (UnrecoverableKeyException e) {
                    throw new TlsConfigException(entryWhere + ": wrong password for the private key", e);
                }
                Certificate[] chain = store.getCertificateChain(alias);
                if (!(key instanceof PrivateKey privateKey) || chain == null || chain.length == 0) continue;
                List<X509Certificate> x509 = new ArrayList<>();
                for (Certificate certificate : chain) {
                    if (!(certificate instanceof X509Certificate c)) throw new TlsConfigException(entryWhere + ": not an X.509 certificate");
                    x509.add(c);
                }
                CertificateChecks.checkKeyMatches(privateKey, x509, entryWhere, "the same entry");
                CertificateChecks.checkValidity(x509, now, entryWhere);
                certificates.add(new ServerCertificate(file + " (alias '" + alias + "')", x509, privateKey));
            }
        } catch (GeneralSecurityException e) {
            throw new TlsConfigException(where + ": cannot read its entries (" + e.getMessage() + ")", e);
        }
        if (certificates.isEmpty()) throw new TlsConfigException(where + ": no private key with a certificate in the store");
        return List.copyOf(certificates);
    }

    private static KeyStore open(byte[] bytes, char[] password, String where) throws TlsConfigException {
        if (new String(bytes, 0, Math.min(bytes.length, 64), StandardCharsets.ISO_8859_1).contains("-----BEGIN")) {
            throw new TlsConfigException(where + ": is a PEM file, not PKCS#12; give it as a PEM certificate and key");
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(new ByteArrayInputStream(bytes), password);
            return store;
        } catch (IOException e) {
            // the JDK reports a failed integrity check (the MAC) as an IOException caused by this
            if (e.getCause() instanceof UnrecoverableKeyException) {
                throw new TlsConfigException(where + ": wrong password", e);
            }
            throw new TlsConfigException(where + ": not a PKCS#12 file (" + e.getMessage() + ")", e);
        } catch (GeneralSecurityException e) {
            throw new TlsConfigException(where + ": cannot open (" + e.getMessage() + ")", e);
        }
    }
}
