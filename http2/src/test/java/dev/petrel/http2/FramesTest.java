package dev.petrel.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The client preface of RFC 9113 section 3.4 and its detection on a plain port (section 3.3). */
class FramesTest {
    static ByteBuffer buffer(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void prefaceIsTheTwentyFourBytesOfSection3_4() {
        assertThat(new String(Frames.clientPreface(), StandardCharsets.ISO_8859_1)).isEqualTo("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
        Frames.clientPreface()[0] = 'X';
        assertThat(Frames.clientPreface()[0]).as("a copy each time").isEqualTo((byte) 'P');
    }

    @Test
    void prefaceMatchCountsLeadingBytesWithoutMovingThePosition_section3_3() {
        ByteBuffer whole = buffer("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\4");
        assertThat(Frames.prefaceMatch(whole)).isEqualTo(24);
        assertThat(whole.position()).isZero();
        assertThat(Frames.prefaceMatch(buffer("PRI * HT"))).as("so far so good: read more").isEqualTo(8);
        assertThat(Frames.prefaceMatch(buffer("GET / HTTP/1.1\r\n"))).isZero();
        assertThat(Frames.prefaceMatch(buffer("PRI * HTTP/1.1\r\n"))).isEqualTo(11);
        assertThat(Frames.prefaceMatch(buffer(""))).isZero();
        ByteBuffer offset = buffer("xxPRI *");
        offset.position(2);
        assertThat(Frames.prefaceMatch(offset)).isEqualTo(5);
        assertThat(offset.position()).isEqualTo(2);
    }
}
