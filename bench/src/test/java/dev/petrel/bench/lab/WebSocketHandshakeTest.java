package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The lab clients' opening handshake: the request they send and the answers they accept. */
class WebSocketHandshakeTest {
    private final WebSocketHandshake handshake = new WebSocketHandshake("127.0.0.1", 18_400, "/ws/echo", new SplittableRandom(7));

    @Test
    void theAcceptKeyOfRfc6455sSampleNonce() {
        assertThat(WebSocketHandshake.acceptKey("dGhlIHNhbXBsZSBub25jZQ==")).isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    }

    @Test
    void theRequestOffersNoExtensionAndASixteenByteKey() {
        String request = new String(handshake.request(), StandardCharsets.US_ASCII);

        assertThat(request).startsWith("GET /ws/echo HTTP/1.1\r\nHost: 127.0.0.1:18400\r\n").endsWith("\r\n\r\n")
                .contains("Upgrade: websocket\r\n", "Connection: Upgrade\r\n", "Sec-WebSocket-Version: 13\r\n",
                        "Sec-WebSocket-Key: " + handshake.key() + "\r\n")
                .doesNotContainIgnoringCase("extensions").doesNotContainIgnoringCase("protocol:");
        assertThat(Base64.getDecoder().decode(handshake.key())).hasSize(16);
    }

    @Test
    void acceptsAGood101WhateverTheCaseOfItsHeaders() {
        assertThatCode(() -> handshake.check(answer("upgrade: WebSocket\r\nconnection: keep-alive, Upgrade\r\n"
                + "sec-websocket-accept: " + WebSocketHandshake.acceptKey(handshake.key()) + "\r\n"))).doesNotThrowAnyException();
    }

    @Test
    void refusesAnythingElse() {
        String accept = "Sec-WebSocket-Accept: " + WebSocketHandshake.acceptKey(handshake.key()) + "\r\n";
        String upgrade = "Upgrade: websocket\r\nConnection: Upgrade\r\n";

        assertThatThrownBy(() -> handshake.check("HTTP/1.1 404 Not Found\r\n\r\n")).isInstanceOf(ProtocolException.class)
                .hasMessageContaining("404");
        assertThatThrownBy(() -> handshake.check(answer(upgrade + "Sec-WebSocket-Accept: x\r\n"))).hasMessageContaining("Accept 'x'");
        assertThatThrownBy(() -> handshake.check(answer("Connection: Upgrade\r\n" + accept))).hasMessageContaining("Upgrade: websocket");
        assertThatThrownBy(() -> handshake.check(answer(upgrade + accept + "Sec-WebSocket-Extensions: permessage-deflate\r\n")))
                .hasMessageContaining("permessage-deflate");
        assertThatThrownBy(() -> handshake.check(answer(upgrade + accept + "Sec-WebSocket-Protocol: chat\r\n")))
                .hasMessageContaining("chat");
    }

    @Test
    void findsTheEndOfTheHead() {
        byte[] bytes = "HTTP/1.1 101 \r\nA: b\r\n\r\n\u0081\u0000".getBytes(StandardCharsets.ISO_8859_1);

        assertThat(WebSocketHandshake.headEnd(bytes, bytes.length)).isEqualTo(bytes.length - 2);
        assertThat(WebSocketHandshake.headEnd(bytes, bytes.length - 3)).isEqualTo(-1);
    }

    private static String answer(String headers) {
        return "HTTP/1.1 101 Switching Protocols\r\n" + headers + "\r\n";
    }
}
