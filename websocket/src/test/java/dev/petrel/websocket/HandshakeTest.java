package dev.petrel.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The opening handshake's pure parts (RFC 6455 section 4). */
class HandshakeTest {
    @Test
    void theAcceptKeyOfSection1_3() {
        assertThat(Handshake.acceptKey("dGhlIHNhbXBsZSBub25jZQ==")).isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    }

    @Test
    void aKeyIsTheBase64OfSixteenBytes_section4_1() {
        assertThat(Handshake.validKey("dGhlIHNhbXBsZSBub25jZQ==")).isTrue();
        assertThat(Handshake.validKey(Base64.getEncoder().encodeToString(new byte[16]))).isTrue();
        assertThat(Handshake.validKey(null)).isFalse();
        assertThat(Handshake.validKey("")).isFalse();
        assertThat(Handshake.validKey(Base64.getEncoder().encodeToString(new byte[15]))).as("15 bytes").isFalse();
        assertThat(Handshake.validKey(Base64.getEncoder().encodeToString(new byte[17]))).as("17 bytes").isFalse();
        assertThat(Handshake.validKey("dGhlIHNhbXBsZSBub25jZQ")).as("no padding").isFalse();
        assertThat(Handshake.validKey("dGhlIHNhbXBsZSBub25jZQ=!")).isFalse();
        assertThat(Handshake.validKey("dGhlIHNhbXBsZSBub25j ZQ=")).isFalse();
        assertThat(Handshake.validKey(" dGhlIHNhbXBsZSBub25jZQ==")).isFalse();
        assertThat(Handshake.validKey("dGhlIHNhbXBsZSBub25jZQ-_")).as("the URL alphabet").isFalse();
    }

    @Test
    void newKeysAreValidAndDiffer() {
        String key = Handshake.newKey();
        assertThat(Handshake.validKey(key)).isTrue();
        assertThat(Handshake.newKey()).isNotEqualTo(key);
        assertThat(Handshake.VERSION).isEqualTo("13");
    }

    @Test
    void theServersFirstChoiceThatTheClientOffered_section4_2_2() {
        List<String> supported = List.of("v2.chat", "chat", "superchat");
        assertThat(Handshake.chooseSubprotocol(List.of("chat, superchat"), supported)).isEqualTo("chat");
        assertThat(Handshake.chooseSubprotocol(List.of("superchat", "v2.chat"), supported)).as("over two header lines").isEqualTo("v2.chat");
        assertThat(Handshake.chooseSubprotocol(List.of(" \tsuperchat\t ,,x"), supported)).isEqualTo("superchat");
        assertThat(Handshake.chooseSubprotocol(List.of("Chat, v2"), supported)).as("names are matched exactly").isNull();
        assertThat(Handshake.chooseSubprotocol(List.of("chatty, cha"), supported)).isNull();
        assertThat(Handshake.chooseSubprotocol(List.of(""), supported)).isNull();
        assertThat(Handshake.chooseSubprotocol(List.of(",,"), Arrays.asList("", null, "chat"))).isNull();
        assertThat(Handshake.chooseSubprotocol(Arrays.asList(null, "chat"), supported)).isEqualTo("chat");
        assertThat(Handshake.chooseSubprotocol(null, supported)).isNull();
        assertThat(Handshake.chooseSubprotocol(List.of(), supported)).isNull();
        assertThat(Handshake.chooseSubprotocol(List.of("chat"), null)).isNull();
        assertThat(Handshake.chooseSubprotocol(List.of("chat"), List.of())).isNull();
    }
}
