package dev.petrel.server.tls;

import dev.petrel.server.config.TlsConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Certificates and keys made at test time with openssl and keytool, each in its own files under a
 * temporary directory. EC P-256 unless the test is about another key type: it is fast to make.
 */
public final class Fixtures {
    private final Path dir;

    public Fixtures(Path dir) {
        this.dir = dir;
    }

    Path dir() {
        return dir;
    }

    /** A certificate and its PKCS#8 key. */
    public record Pair(Path certificate, Path key) {
        public TlsConfig config() {
            return TlsConfig.pem(certificate, key);
        }
    }

    /**
     * A self-signed certificate for {@code names} (the first is the CN) with a PKCS#8 key.
     *
     * @param algorithm {@code ec}, {@code rsa} or {@code ed25519}
     */
    public Pair selfSigned(String base, String algorithm, String... names) throws IOException, InterruptedException {
        Path key = dir.resolve(base + ".key");
        Path certificate = dir.resolve(base + ".crt");
        String newkey = switch (algorithm) {
            case "ec" -> "ec";
            case "rsa" -> "rsa:2048";
            case "ed25519" -> "ed25519";
            default -> throw new IllegalArgumentException(algorithm);
        };
        var args = new ArrayList<>(List.of("req", "-x509", "-newkey", newkey));
        if (algorithm.equals("ec")) args.addAll(List.of("-pkeyopt", "ec_paramgen_curve:P-256"));
        args.addAll(List.of("-nodes", "-keyout", key.toString(), "-out", certificate.toString(), "-days", "30",
                "-subj", "/CN=" + names[0], "-addext", "subjectAltName=" + sans(names)));
        Tools.openssl(dir, args.toArray(String[]::new));
        return new Pair(certificate, key);
    }

    /** The key rewritten in OpenSSL's traditional format: PKCS#1 for RSA, SEC1 for EC. */
    Path traditional(Path key, String name) throws IOException, InterruptedException {
        Path out = dir.resolve(name);
        Tools.openssl(dir, "pkey", "-in", key.toString(), "-traditional", "-out", out.toString());
        return out;
    }

    /** The key encrypted with a password: PKCS#8 {@code ENCRYPTED PRIVATE KEY}, or traditional with Proc-Type. */
    Path encrypted(Path key, String name, boolean traditional) throws IOException, InterruptedException {
        Path out = dir.resolve(name);
        if (traditional) {
            Tools.openssl(dir, "pkey", "-in", key.toString(), "-traditional", "-aes256", "-passout", "pass:secret", "-out", out.toString());
        } else {
            Tools.openssl(dir, "pkey", "-in", key.toString(), "-aes256", "-passout", "pass:secret", "-out", out.toString());
        }
        return out;
    }

    /** A PKCS#12 store holding the pair, with {@code password} (may be empty). */
    Path pkcs12(Pair pair, String name, String password) throws IOException, InterruptedException {
        Path out = dir.resolve(name);
        Tools.openssl(dir, "pkcs12", "-export", "-in", pair.certificate().toString(), "-inkey", pair.key().toString(),
                "-name", "server", "-out", out.toString(), "-passout", "pass:" + password);
        return out;
    }

    /**
     * A self-signed EC certificate whose validity starts at {@code startDate} (keytool syntax:
     * {@code -2y}, {@code +1y}) and lasts 30 days, as PEM files: openssl's {@code req -x509} cannot
     * backdate, and OpenSSL 3.0 has no {@code -not_before}; keytool's {@code -startdate} can.
     */
    public Pair datedFrom(String base, String startDate) throws IOException, InterruptedException {
        Path store = dir.resolve(base + ".p12");
        Tools.keytool(dir, "-genkeypair", "-alias", base, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + base,
                "-startdate", startDate, "-validity", "30", "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", "changeit", "-keypass", "changeit", "-noprompt");
        Path certificate = dir.resolve(base + ".crt");
        Path key = dir.resolve(base + ".key");
        Tools.openssl(dir, "pkcs12", "-in", store.toString(), "-passin", "pass:changeit", "-nokeys", "-out", certificate.toString());
        Tools.openssl(dir, "pkcs12", "-in", store.toString(), "-passin", "pass:changeit", "-nocerts", "-nodes", "-out", key.toString());
        return new Pair(certificate, key);
    }

    /**
     * A root CA, an intermediate CA it signed, and a leaf for {@code leafName} the intermediate
     * signed; the leaf's certificate file holds leaf then intermediate.
     */
    Pair chain(String leafName) throws IOException, InterruptedException {
        String ec = "ec_paramgen_curve:P-256";
        Path caExt = dir.resolve("ca.ext");
        Files.writeString(caExt, "basicConstraints=critical,CA:true\nkeyUsage=critical,keyCertSign,cRLSign\n");
        Path leafExt = dir.resolve("leaf.ext");
        Files.writeString(leafExt, "basicConstraints=CA:false\nsubjectAltName=DNS:" + leafName + "\nextendedKeyUsage=serverAuth\n");
        Tools.openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", ec, "-nodes", "-keyout", "root.key", "-out", "root.crt",
                "-days", "30", "-subj", "/CN=Test Root", "-addext", "basicConstraints=critical,CA:true",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign");
        Tools.openssl(dir, "req", "-new", "-newkey", "ec", "-pkeyopt", ec, "-nodes", "-keyout", "inter.key", "-out", "inter.csr",
                "-subj", "/CN=Test Intermediate");
        Tools.openssl(dir, "x509", "-req", "-in", "inter.csr", "-CA", "root.crt", "-CAkey", "root.key", "-CAcreateserial",
                "-days", "30", "-extfile", caExt.toString(), "-out", "inter.crt");
        Tools.openssl(dir, "req", "-new", "-newkey", "ec", "-pkeyopt", ec, "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr",
                "-subj", "/CN=" + leafName);
        Tools.openssl(dir, "x509", "-req", "-in", "leaf.csr", "-CA", "inter.crt", "-CAkey", "inter.key", "-CAcreateserial",
                "-days", "30", "-extfile", leafExt.toString(), "-out", "leaf.crt");
        Path chain = dir.resolve("leaf-chain.crt");
        Files.writeString(chain, Files.readString(dir.resolve("leaf.crt")) + Files.readString(dir.resolve("inter.crt")));
        return new Pair(chain, dir.resolve("leaf.key"));
    }

    private static String sans(String[] names) {
        StringBuilder out = new StringBuilder();
        for (String name : names) {
            if (!out.isEmpty()) out.append(',');
            out.append("DNS:").append(name);
        }
        return out.toString();
    }
}
