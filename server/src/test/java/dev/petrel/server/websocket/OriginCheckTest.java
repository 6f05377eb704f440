package dev.petrel.server.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class OriginCheckTest {
    private final OriginCheck ownOnly = new OriginCheck(List.of());

    @Test
    void aPageOfTheServersOwnOriginMayOpenASession() {
        assertThat(ownOnly.allows("http://example.com:8080", "example.com:8080", "http")).isTrue();
        assertThat(ownOnly.allows("https://Example.com", "example.com:443", "https")).as("default port, any case").isTrue();
        assertThat(ownOnly.allows("http://example.com", "example.com", "http")).isTrue();
        assertThat(ownOnly.allows("http://[::1]:8080", "[::1]:8080", "http")).isTrue();
    }

    @Test
    void aPageOfAnotherOriginMayNot() {
        assertThat(ownOnly.allows("http://evil.example", "example.com", "http")).isFalse();
        assertThat(ownOnly.allows("http://example.com:8081", "example.com:8080", "http")).as("another port").isFalse();
        assertThat(ownOnly.allows("http://example.com", "example.com", "https")).as("another scheme").isFalse();
        assertThat(ownOnly.allows("null", "example.com", "http")).as("an opaque origin").isFalse();
        assertThat(ownOnly.allows("http://example.com", null, "http")).as("no Host to compare").isFalse();
    }

    @Test
    void aRequestWithoutOriginComesFromNoBrowserPage() {
        assertThat(ownOnly.allows(null, "example.com", "http")).isTrue();
    }

    @Test
    void theAllowedOriginsAndTheWildcardOpenItToOthers() {
        OriginCheck listed = new OriginCheck(List.of("https://app.example/"));
        assertThat(listed.allows("https://APP.example", "api.example", "https")).isTrue();
        assertThat(listed.allows("https://other.example", "api.example", "https")).isFalse();
        assertThat(new OriginCheck(List.of("*")).allows("https://anyone.example", "api.example", "https")).isTrue();
    }
}
