package dev.petrel.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RecentTextTest {
    private final RecentText recent = new RecentText();

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void theSameBytesGiveBackTheSameString() {
        String first = recent.of(bytes("xx127.0.0.1:8080"), 2, 14);
        String second = recent.of(bytes("127.0.0.1:8080yy"), 0, 14);
        assertThat(first).isEqualTo("127.0.0.1:8080");
        assertThat(second).isSameAs(first);
    }

    @Test
    void otherBytesGiveANewStringWhichIsThenRemembered() {
        String a = recent.of(bytes("/a"), 0, 2);
        String b = recent.of(bytes("/b"), 0, 2);
        assertThat(b).isEqualTo("/b").isNotSameAs(a);
        assertThat(recent.of(bytes("/b"), 0, 2)).isSameAs(b);
        assertThat(recent.of(bytes("/a"), 0, 2)).isEqualTo("/a").isNotSameAs(a);
    }

    @Test
    void aPrefixOfTheRememberedBytesIsNotTheSame() {
        String longer = recent.of(bytes("/index.html"), 0, 11);
        assertThat(recent.of(bytes("/index.html"), 0, 6)).isEqualTo("/index").isNotSameAs(longer);
    }

    @Test
    void growsForLongerValuesAndKeepsHighBytes() {
        String value = "é".repeat(10) + "x".repeat(200);
        byte[] src = bytes(value);
        String first = recent.of(src, 0, src.length);
        assertThat(first).isEqualTo(value);
        assertThat(recent.of(src.clone(), 0, src.length)).isSameAs(first);
    }

    @Test
    void veryLongValuesAreDecodedEveryTime() {
        byte[] src = bytes("/" + "a".repeat(2000));
        String first = recent.of(src, 0, src.length);
        String second = recent.of(src, 0, src.length);
        assertThat(second).isEqualTo(first).isNotSameAs(first);
    }
}
