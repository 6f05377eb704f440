package dev.petrel.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PercentDecoderTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "/plain/path|/plain/path",
        "/a%20b|/a b",
        "%41%42%43|ABC",
        "/caf%C3%A9|/caf\u00e9",
        "/caf%c3%a9|/caf\u00e9",
        "%E2%82%AC|\u20ac",
        "%F0%9F%98%80|\ud83d\ude00",
        "/a%2Fb|/a/b",
        "/a%2fb%3F%23|/a/b?#",
        "a+b|a+b",
        "%2B|+",
        "%25|%",
        "%2541|%41",
        "100%25|100%"})
    void decodes(String raw, String decoded) {
        assertThat(PercentDecoder.decode(raw)).isEqualTo(decoded);
    }

    @Test
    void nulIsDecodedLikeAnyOtherByte() {
        assertThat(PercentDecoder.decode("a%00b")).isEqualTo("a\u0000b");
    }

    @Test
    void textWithoutPercentIsReturnedAsIs() {
        String raw = "/no/escapes";
        assertThat(PercentDecoder.decode(raw)).isSameAs(raw);
        assertThat(PercentDecoder.decode("")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"%", "%4", "a%4", "%%41", "%G1", "%1G", "%-1", "%+1", "% 1", "/a%2", "%\u0661\u0662", "%\uff11\uff12"})
    void malformedEscapesAreNull(String raw) {
        assertThat(PercentDecoder.decode(raw)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "%FF", "%C3", "%C3%28", "%80", "%E2%82", "%C0%AF", "%E0%80%AF", "%ED%A0%80", "%F4%90%80%80", "/ok%C3"})
    void invalidUtf8IsNull(String raw) {
        assertThat(PercentDecoder.decode(raw)).isNull();
    }

    @Test
    void nonAsciiCharactersNextToEscapesAreNull() {
        assertThat(PercentDecoder.decode("caf\u00e9%20")).isNull();
    }
}
