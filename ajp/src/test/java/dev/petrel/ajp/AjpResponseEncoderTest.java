package dev.petrel.ajp;

import static dev.petrel.ajp.ForwardRequestBuilderTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.http.ByteSink;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The packets to the front end, byte for byte as mod_jk and mod_proxy_ajp read them. */
class AjpResponseEncoderTest {
    private static final int SIZE = AjpPackets.DEFAULT_PACKET_SIZE;

    private final ByteSink sink = new ByteSink(16);

    private static int length(byte[] packet, int at) {
        return ((packet[at + 2] & 0xFF) << 8) | (packet[at + 3] & 0xFF);
    }

    @Test
    void aSmallResponseHeadIsExactlyTheseBytes() {
        int start = AjpResponseEncoder.beginHeaders(200, "OK", 2, sink);
        AjpResponseEncoder.header("Content-Type", "text/plain", sink);
        AjpResponseEncoder.header("X-Petrel", "yes", sink);
        AjpResponseEncoder.endPacket(start, SIZE, sink);
        assertThat(start).isZero();
        assertThat(sink.toByteArray()).containsExactly(bytes(
                "AB", 0x00, 42,
                AjpPackets.SEND_HEADERS,
                0x00, 0xC8,
                0x00, 0x02, "OK", 0x00,
                0x00, 0x02,
                0xA0, 0x01, 0x00, 0x0A, "text/plain", 0x00,
                0x00, 0x08, "X-Petrel", 0x00, 0x00, 0x03, "yes", 0x00));
    }

    @Test
    void theHeadMayFollowOtherBytesInTheSink() {
        sink.write(bytes("AB", 0, 1, 9));
        int start = AjpResponseEncoder.beginHeaders(404, "Not Found", 0, sink);
        AjpResponseEncoder.endPacket(start, SIZE, sink);
        assertThat(start).isEqualTo(5);
        assertThat(sink.toByteArray()).containsExactly(bytes(
                "AB", 0, 1, 9,
                "AB", 0x00, 17, 0x04, 0x01, 0x94, 0x00, 0x09, "Not Found", 0x00, 0x00, 0x00));
    }

    @Test
    void statusAndCountAreTwoByteInts() {
        int start = AjpResponseEncoder.beginHeaders(599, "", 300, sink);
        byte[] packet = sink.toByteArray();
        assertThat(Arrays.copyOfRange(packet, start + 4, packet.length))
                .containsExactly(bytes(0x04, 0x02, 0x57, 0x00, 0x00, 0x00, 0x01, 0x2C));
    }

    @Test
    void valuesAndReasonsAreWrittenAsIso88591() {
        int start = AjpResponseEncoder.beginHeaders(200, "D\u00e9j\u00e0", 1, sink);
        AjpResponseEncoder.header("X-Caf\u00e9", "\u00ff", sink);
        AjpResponseEncoder.endPacket(start, SIZE, sink);
        assertThat(Arrays.copyOfRange(sink.toByteArray(), 4, sink.length())).containsExactly(bytes(
                0x04, 0x00, 0xC8, 0x00, 0x04, "D", 0xE9, "j", 0xE0, 0x00, 0x00, 0x01,
                0x00, 0x06, "X-Caf", 0xE9, 0x00, 0x00, 0x01, 0xFF, 0x00));
    }

    static Stream<Arguments> codedNames() {
        String[] names = {"Content-Type", "Content-Language", "Content-Length", "Date", "Last-Modified", "Location",
            "Set-Cookie", "Set-Cookie2", "Servlet-Engine", "Status", "WWW-Authenticate"};
        Stream.Builder<Arguments> cases = Stream.builder();
        for (int i = 0; i < names.length; i++) {
            int code = 0xA001 + i;
            cases.add(Arguments.of(names[i], code));
            cases.add(Arguments.of(names[i].toLowerCase(Locale.ROOT), code));
            cases.add(Arguments.of(names[i].toUpperCase(Locale.ROOT), code));
        }
        return cases.build();
    }

    @ParameterizedTest
    @MethodSource("codedNames")
    void theElevenCommonNamesAreSentAsTheirCodeInAnyCase(String name, int code) {
        AjpResponseEncoder.header(name, "v", sink);
        assertThat(sink.toByteArray()).containsExactly(bytes(code >>> 8, code & 0xFF, 0x00, 0x01, "v", 0x00));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Content-Encoding", "Cache-Control", "Transfer-Encoding", "Server", "Vary", "ETag", "Content-Type2",
        "Set-Cookie3", "Status-Line", "Host", "User-Agent", "X"})
    void otherNamesAreSentAsStringsAsGiven(String name) {
        AjpResponseEncoder.header(name, "v", sink);
        byte[] expected = bytes(0x00, name.length(), name, 0x00, 0x00, 0x01, "v", 0x00);
        assertThat(sink.toByteArray()).containsExactly(expected);
    }

    @Test
    void anEmptyValueIsAnEmptyStringWithItsNul() {
        AjpResponseEncoder.header("Location", "", sink);
        assertThat(sink.toByteArray()).containsExactly(bytes(0xA0, 0x06, 0x00, 0x00, 0x00));
    }

    @Test
    void aHeadFillingThePacketExactlyIsAccepted() {
        // 14 bytes of head with reason "OK", 8 of name "X-Pad", 3 around the value: 25 + n = 8192
        int start = AjpResponseEncoder.beginHeaders(200, "OK", 1, sink);
        AjpResponseEncoder.header("X-Pad", "p".repeat(SIZE - 25), sink);
        AjpResponseEncoder.endPacket(start, SIZE, sink);
        assertThat(sink.length()).isEqualTo(SIZE);
        assertThat(length(sink.array(), 0)).isEqualTo(SIZE - 4);
    }

    @Test
    void aHeadOneByteBeyondThePacketSizeIsRefused() {
        int start = AjpResponseEncoder.beginHeaders(200, "OK", 1, sink);
        AjpResponseEncoder.header("X-Pad", "p".repeat(SIZE - 24), sink);
        assertThatThrownBy(() -> AjpResponseEncoder.endPacket(start, SIZE, sink))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("8193")
                .hasMessageContaining("8192");
    }

    @Test
    void theLimitCountsFromTheStartOfThePacketNotTheSink() {
        sink.write(new byte[100]);
        int start = AjpResponseEncoder.beginHeaders(200, "OK", 1, sink);
        AjpResponseEncoder.header("X-Pad", "p".repeat(SIZE - 25), sink);
        AjpResponseEncoder.endPacket(start, SIZE, sink);
        assertThat(length(sink.array(), start)).isEqualTo(SIZE - 4);
    }

    @Test
    void largerPacketSizesAllowLargerHeads() {
        int start = AjpResponseEncoder.beginHeaders(200, "OK", 1, sink);
        AjpResponseEncoder.header("X-Pad", "p".repeat(AjpPackets.MAX_PACKET_SIZE - 25), sink);
        assertThatThrownBy(() -> AjpResponseEncoder.endPacket(start, SIZE, sink)).isInstanceOf(IllegalStateException.class);
        AjpResponseEncoder.endPacket(start, AjpPackets.MAX_PACKET_SIZE, sink);
        assertThat(sink.toByteArray()).startsWith(bytes("AB", 0xFF, 0xFC, 0x04));
    }

    // body chunks: 'A' 'B', payload length, 3, data length, data, NUL

    @Test
    void theChunkOverheadIsSevenBytesBeforeAndOneAfter() {
        assertThat(AjpResponseEncoder.BODY_CHUNK_HEADER).isEqualTo(7);
        assertThat(AjpResponseEncoder.BODY_CHUNK_OVERHEAD).isEqualTo(8);
    }

    @Test
    void aBodyChunkHeaderIsWrittenWhereAskedAndNowhereElse() {
        byte[] dst = new byte[20];
        Arrays.fill(dst, (byte) '.');
        AjpResponseEncoder.bodyChunkHeader(5, dst, 2);
        assertThat(dst).containsExactly(bytes("..", "AB", 0x00, 0x09, 0x03, 0x00, 0x05, "..........."));
    }

    @Test
    void aWholeBodyChunkIsHeaderDataAndNul() {
        byte[] data = bytes("hello");
        byte[] packet = new byte[AjpResponseEncoder.BODY_CHUNK_OVERHEAD + data.length];
        AjpResponseEncoder.bodyChunkHeader(data.length, packet, 0);
        System.arraycopy(data, 0, packet, AjpResponseEncoder.BODY_CHUNK_HEADER, data.length);
        assertThat(packet).containsExactly(bytes("AB", 0x00, 0x09, 0x03, 0x00, 0x05, "hello", 0x00));
        assertThat(length(packet, 0)).isEqualTo(packet.length - AjpPackets.HEADER_SIZE);
    }

    @Test
    void lengthsAboveAByteUseBothBytes() {
        byte[] dst = new byte[7];
        AjpResponseEncoder.bodyChunkHeader(300, dst, 0);
        assertThat(dst).containsExactly(bytes("AB", 0x01, 0x30, 0x03, 0x01, 0x2C));
    }

    @Test
    void theLargestChunkFillsThePacketExactly() {
        int max = AjpResponseEncoder.maxChunkData(SIZE);
        assertThat(max).isEqualTo(8184);
        byte[] dst = new byte[7];
        AjpResponseEncoder.bodyChunkHeader(max, dst, 0);
        assertThat(length(dst, 0)).isEqualTo(max + 4).isEqualTo(SIZE - AjpPackets.HEADER_SIZE);
        assertThat(AjpResponseEncoder.BODY_CHUNK_OVERHEAD + max).isEqualTo(SIZE);

        int largest = AjpResponseEncoder.maxChunkData(AjpPackets.MAX_PACKET_SIZE);
        assertThat(largest).isEqualTo(65528);
        AjpResponseEncoder.bodyChunkHeader(largest, dst, 0);
        assertThat(dst).containsExactly(bytes("AB", 0xFF, 0xFC, 0x03, 0xFF, 0xF8));
    }

    @Property
    void theChunkPayloadIsTheDataPlusFour(@ForAll @IntRange(min = 16, max = 65536) int packetSize, @ForAll @IntRange(max = 65528) int data) {
        int length = data % (AjpResponseEncoder.maxChunkData(packetSize) + 1);
        byte[] dst = new byte[7];
        AjpResponseEncoder.bodyChunkHeader(length, dst, 0);
        assertThat(length(dst, 0)).isEqualTo(length + 4);
        assertThat(((dst[5] & 0xFF) << 8) | (dst[6] & 0xFF)).isEqualTo(length);
        assertThat(length + AjpResponseEncoder.BODY_CHUNK_OVERHEAD).isLessThanOrEqualTo(packetSize);
    }

    @Test
    void aFlushIsAnEmptyBodyChunk() {
        assertThat(AjpResponseEncoder.flush()).containsExactly(bytes("AB", 0x00, 0x04, 0x03, 0x00, 0x00, 0x00));
        byte[] empty = new byte[AjpResponseEncoder.BODY_CHUNK_OVERHEAD];
        AjpResponseEncoder.bodyChunkHeader(0, empty, 0);
        assertThat(AjpResponseEncoder.flush()).isEqualTo(empty);
    }

    @Test
    void theEndOfTheResponseSaysWhetherTheConnectionMayBeReused() {
        assertThat(AjpResponseEncoder.endResponse(true)).containsExactly(bytes("AB", 0x00, 0x02, 0x05, 0x01));
        assertThat(AjpResponseEncoder.endResponse(false)).containsExactly(bytes("AB", 0x00, 0x02, 0x05, 0x00));
    }

    @Test
    void theEndOfTheResponseIsWrittenInPlace() {
        byte[] buffer = new byte[10];
        java.util.Arrays.fill(buffer, (byte) 0x7E);
        assertThat(AjpResponseEncoder.endResponse(true, buffer, 2)).isEqualTo(AjpResponseEncoder.END_RESPONSE_SIZE);
        assertThat(buffer).containsExactly(bytes(0x7E, 0x7E, "AB", 0x00, 0x02, 0x05, 0x01, 0x7E, 0x7E));
        AjpResponseEncoder.endResponse(false, buffer, 2);
        assertThat(buffer[7]).isEqualTo((byte) 0);
    }

    @Test
    void aCpongIsOneByte() {
        assertThat(AjpResponseEncoder.cpong()).containsExactly(bytes("AB", 0x00, 0x01, 0x09));
    }

    @Test
    void aGetBodyChunkAsksForALength() {
        assertThat(AjpResponseEncoder.getBodyChunk(8186)).containsExactly(bytes("AB", 0x00, 0x03, 0x06, 0x1F, 0xFA));
        assertThat(AjpResponseEncoder.getBodyChunk(0)).containsExactly(bytes("AB", 0x00, 0x03, 0x06, 0x00, 0x00));
        assertThat(AjpResponseEncoder.getBodyChunk(65530)).containsExactly(bytes("AB", 0x00, 0x03, 0x06, 0xFF, 0xFA));
    }

    @Test
    void theFixedPacketsAreFreshCopies() {
        AjpResponseEncoder.endResponse(true)[5] = 0;
        AjpResponseEncoder.endResponse(false)[5] = 1;
        AjpResponseEncoder.cpong()[4] = 0;
        AjpResponseEncoder.flush()[3] = 0;
        assertThat(AjpResponseEncoder.endResponse(true)).containsExactly(bytes("AB", 0x00, 0x02, 0x05, 0x01));
        assertThat(AjpResponseEncoder.endResponse(false)).containsExactly(bytes("AB", 0x00, 0x02, 0x05, 0x00));
        assertThat(AjpResponseEncoder.cpong()).containsExactly(bytes("AB", 0x00, 0x01, 0x09));
        assertThat(AjpResponseEncoder.flush()).containsExactly(bytes("AB", 0x00, 0x04, 0x03, 0x00, 0x00, 0x00));
    }

    @Test
    void theSizesAreTomcatsMaxReadSizeAndMaxSendSize() {
        assertThat(AjpResponseEncoder.maxBodyRequest(8192)).isEqualTo(8186);
        assertThat(AjpResponseEncoder.maxChunkData(8192)).isEqualTo(8184);
        assertThat(AjpResponseEncoder.maxBodyRequest(65536)).isEqualTo(65530);
        assertThat(AjpResponseEncoder.maxChunkData(65536)).isEqualTo(65528);
    }

    @Test
    void theLargestBodyRequestIsWhatOnePacketFromTheFrontEndCarries() throws AjpFormatException {
        int max = AjpResponseEncoder.maxBodyRequest(SIZE);
        byte[] packet = ForwardRequestBuilder.bodyChunk(new byte[max]);
        assertThat(packet).hasSize(SIZE);
        int payload = AjpPackets.payloadLength(java.nio.ByteBuffer.wrap(packet), SIZE);
        assertThat(AjpPackets.bodyChunkLength(packet, AjpPackets.HEADER_SIZE, payload)).isEqualTo(max);
        byte[] tooBig = ForwardRequestBuilder.bodyChunk(new byte[max + 1]);
        assertThatThrownBy(() -> AjpPackets.payloadLength(java.nio.ByteBuffer.wrap(tooBig), SIZE))
                .isInstanceOf(AjpFormatException.class);
    }
}
