package dev.petrel.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PemBlockTest {

    @Test
    void blocksWithTextAroundAndCrLf() {
        String text = "subject=CN = x\r\n-----BEGIN CERTIFICATE-----\r\nAQID\r\nBA==\r\n-----END CERTIFICATE-----\r\n"
                + "trailing words\n-----BEGIN PRIVATE KEY-----\nBQY=\n-----END PRIVATE KEY-----\n";

        List<PemBlock> blocks = PemBlock.parseAll(text);

        assertThat(blocks).extracting(PemBlock::label).containsExactly("CERTIFICATE", "PRIVATE KEY");
        assertThat(blocks.get(0).der()).containsExactly(1, 2, 3, 4);
        assertThat(blocks.get(1).der()).containsExactly(5, 6);
        assertThat(blocks.get(0).encrypted()).isFalse();
    }

    @Test
    void rfc1421HeadersMarkEncryption() {
        String text = "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,00\n\nAQID\n-----END RSA PRIVATE KEY-----\n";

        PemBlock block = PemBlock.parseAll(text).getFirst();

        assertThat(block.encrypted()).isTrue();
        assertThat(block.headers()).containsEntry("DEK-Info", "AES-256-CBC,00");
        assertThat(block.der()).containsExactly(1, 2, 3);
    }

    @Test
    void noBlocksInPlainText() {
        assertThat(PemBlock.parseAll("hello\nworld\n")).isEmpty();
        assertThat(PemBlock.parseAll("")).isEmpty();
    }

    @Test
    void malformedBlocks() {
        assertThatThrownBy(() -> PemBlock.parseAll("-----BEGIN CERTIFICATE-----\nAQID\n"))
                .hasMessage("BEGIN CERTIFICATE has no END line");
        assertThatThrownBy(() -> PemBlock.parseAll("-----BEGIN CERTIFICATE-----\nAQID\n-----END PRIVATE KEY-----\n"))
                .hasMessage("line 3: END PRIVATE KEY does not close BEGIN CERTIFICATE");
        assertThatThrownBy(() -> PemBlock.parseAll("-----BEGIN CERTIFICATE-----\n%%%%\n-----END CERTIFICATE-----\n"))
                .hasMessage("the CERTIFICATE block is not valid Base64");
    }
}
