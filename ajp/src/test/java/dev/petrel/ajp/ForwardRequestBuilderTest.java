package dev.petrel.ajp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The test builder itself, against packets written out byte by byte from the protocol description. */
class ForwardRequestBuilderTest {

    /** Bytes from ints and the characters of strings, for writing packets out by hand. */
    static byte[] bytes(Object... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (Object part : parts) {
            if (part instanceof Integer b) {
                out.write(b);
            } else {
                for (char c : ((String) part).toCharArray()) out.write(c);
            }
        }
        return out.toByteArray();
    }

    @Test
    void aMinimalGetIsWrittenFieldByField() {
        byte[] payload = new ForwardRequestBuilder()
                .method(ForwardRequestBuilder.GET)
                .protocol("HTTP/1.1")
                .uri("/a")
                .remoteAddress("10.0.0.1")
                .remoteHost(null)
                .serverName("h")
                .serverPort(8080)
                .ssl(true)
                .payload();
        assertThat(payload).containsExactly(bytes(
                0x02, 0x02,
                0, 8, "HTTP/1.1", 0,
                0, 2, "/a", 0,
                0, 8, "10.0.0.1", 0,
                0xFF, 0xFF,
                0, 1, "h", 0,
                0x1F, 0x90,
                1,
                0, 0,
                0xFF));
    }

    @Test
    void headersAreCodedAsTheFrontEndsCodeThemAndAttributesFollowInOrder() {
        byte[] payload = new ForwardRequestBuilder()
                .uri("/")
                .remoteAddress("a")
                .remoteHost("a")
                .serverName("h")
                .serverPort(80)
                .header("host", "h")
                .header("X-A", "1")
                .codedHeader(ForwardRequestBuilder.SC_CONTENT_LENGTH, null)
                .queryString("q=1")
                .requestAttribute("AJP_REMOTE_PORT", "4711")
                .sslKeySize(256)
                .storedMethod("PATCH")
                .payload();
        assertThat(payload).containsExactly(bytes(
                0x02, 0xFF,
                0, 8, "HTTP/1.1", 0,
                0, 1, "/", 0,
                0, 1, "a", 0,
                0, 1, "a", 0,
                0, 1, "h", 0,
                0, 80,
                0,
                0, 3,
                0xA0, 0x0B, 0, 1, "h", 0,
                0, 3, "X-A", 0, 0, 1, "1", 0,
                0xA0, 0x08, 0xFF, 0xFF,
                0x05, 0, 3, "q=1", 0,
                0x0A, 0, 15, "AJP_REMOTE_PORT", 0, 0, 4, "4711", 0,
                0x0B, 1, 0,
                0x0D, 0, 5, "PATCH", 0,
                0xFF));
    }

    @Test
    void aPacketIsThePayloadAfterTheMagicAndItsLength() {
        ForwardRequestBuilder builder = new ForwardRequestBuilder().header("User-Agent", "x".repeat(300));
        byte[] payload = builder.payload();
        byte[] packet = builder.packet();
        assertThat(packet).hasSize(payload.length + 4);
        assertThat(packet[0]).isEqualTo((byte) 0x12);
        assertThat(packet[1]).isEqualTo((byte) 0x34);
        assertThat(((packet[2] & 0xFF) << 8) | (packet[3] & 0xFF)).isEqualTo(payload.length);
        assertThat(java.util.Arrays.copyOfRange(packet, 4, packet.length)).isEqualTo(payload);
    }

    @Test
    void aBodyChunkCarriesItsDataLengthAndNoTrailingNul() {
        assertThat(ForwardRequestBuilder.bodyChunk(bytes("hello")))
                .containsExactly(bytes(0x12, 0x34, 0, 7, 0, 5, "hello"));
        assertThat(ForwardRequestBuilder.bodyChunk(new byte[0])).containsExactly(bytes(0x12, 0x34, 0, 2, 0, 0));
    }
}
