package dev.petrel.server.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HandshakeRequestTest {
    private static final HandshakeRequest OPENED = new HandshakeRequest("/ws", null,
            "Host: example.com\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\nSec-WebSocket-Version: 13\n"
                    + "Cookie: a=1\nX-Empty: \nCookie: b=2\n",
            null, null);

    @Test
    void findsAHeaderByNameInAnyCase() {
        assertThat(OPENED.header("Host")).isEqualTo("example.com");
        assertThat(OPENED.header("sec-websocket-version")).isEqualTo("13");
        assertThat(OPENED.header("SEC-WEBSOCKET-KEY")).isEqualTo("dGhlIHNhbXBsZSBub25jZQ==");
    }

    @Test
    void givesTheFirstOfRepeatedValuesAndAnEmptyOne() {
        assertThat(OPENED.header("Cookie")).isEqualTo("a=1");
        assertThat(OPENED.header("X-Empty")).isEmpty();
    }

    @Test
    void aNameThatOnlyStartsAnotherOrIsMissingFindsNothing() {
        assertThat(OPENED.header("Sec-WebSocket")).isNull();
        assertThat(OPENED.header("Hos")).isNull();
        assertThat(OPENED.header("Origin")).isNull();
        assertThat(new HandshakeRequest("/", null, "", null, null).header("Host")).isNull();
    }
}
