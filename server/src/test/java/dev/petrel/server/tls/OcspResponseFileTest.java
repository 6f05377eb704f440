package dev.petrel.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.server.config.TlsConfigException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shape of a stapled OCSP response (RFC 6960 section 4.2.1), checked before it is served. */
class OcspResponseFileTest {
    @TempDir
    Path dir;

    @Test
    void aSuccessfulResponseIsTaken() throws Exception {
        // OCSPResponse ::= SEQUENCE { responseStatus ENUMERATED successful(0), responseBytes [0] ... }
        byte[] response = {0x30, 0x07, 0x0A, 0x01, 0x00, (byte) 0xA0, 0x02, 0x05, 0x00};
        Path file = Files.write(dir.resolve("ok.der"), response);

        assertThat(OcspResponseFile.read(file)).isEqualTo(response);
    }

    @Test
    void anErrorResponseATruncatedOneAndPemAreRefused() throws Exception {
        assertThat(OcspResponseFile.problem(new byte[] {0x30, 0x03, 0x0A, 0x01, 0x06}))
                .isEqualTo("its status is not successful (06)"); // unauthorized
        assertThat(OcspResponseFile.problem(new byte[] {0x30, 0x07, 0x0A, 0x01, 0x00})).startsWith("not a DER OCSP response");
        assertThat(OcspResponseFile.problem(new byte[] {0x30, 0x03, 0x0A, 0x01, 0x00, 0x00})).isEqualTo("bytes follow the response");
        Path pem = Files.writeString(dir.resolve("r.pem"), "-----BEGIN OCSP RESPONSE-----\n", StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> OcspResponseFile.read(pem)).isInstanceOf(TlsConfigException.class)
                .hasMessageStartingWith("TLS: OCSP response " + pem + ": not a DER OCSP response");
        assertThatThrownBy(() -> OcspResponseFile.read(dir.resolve("missing.der"))).isInstanceOf(TlsConfigException.class)
                .hasMessageContaining(": cannot be read");
    }
}
