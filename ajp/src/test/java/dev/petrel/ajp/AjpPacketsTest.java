package dev.petrel.ajp;

import static dev.petrel.ajp.ForwardRequestBuilderTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The framing of packets from the front end: magic, length, and the length inside a body chunk. */
class AjpPacketsTest {
    private static final int SIZE = AjpPackets.DEFAULT_PACKET_SIZE;

    private static int payloadLength(byte[] bytes) throws AjpFormatException {
        return AjpPackets.payloadLength(ByteBuffer.wrap(bytes), SIZE);
    }

    @Test
    void theProtocolConstantsAreAjp13s() {
        assertThat(AjpPackets.HEADER_SIZE).isEqualTo(4);
        assertThat(AjpPackets.DEFAULT_PACKET_SIZE).isEqualTo(8192);
        assertThat(AjpPackets.MAX_PACKET_SIZE).isEqualTo(65536);
        assertThat(AjpPackets.FORWARD_REQUEST).isEqualTo(2);
        assertThat(AjpPackets.SEND_BODY_CHUNK).isEqualTo(3);
        assertThat(AjpPackets.SEND_HEADERS).isEqualTo(4);
        assertThat(AjpPackets.END_RESPONSE).isEqualTo(5);
        assertThat(AjpPackets.GET_BODY_CHUNK).isEqualTo(6);
        assertThat(AjpPackets.SHUTDOWN).isEqualTo(7);
        assertThat(AjpPackets.PING).isEqualTo(8);
        assertThat(AjpPackets.CPONG_REPLY).isEqualTo(9);
        assertThat(AjpPackets.CPING).isEqualTo(10);
    }

    @Test
    void fewerThanFourBytesAreNotYetALength() throws AjpFormatException {
        assertThat(payloadLength(new byte[0])).isEqualTo(-1);
        assertThat(payloadLength(bytes(0x12))).isEqualTo(-1);
        assertThat(payloadLength(bytes(0x12, 0x34))).isEqualTo(-1);
        assertThat(payloadLength(bytes(0x12, 0x34, 0x00))).isEqualTo(-1);
    }

    @Test
    void fewerThanFourBytesAreNotJudgedEvenWithTheWrongMagic() throws AjpFormatException {
        assertThat(payloadLength(bytes("GET"))).isEqualTo(-1);
        assertThat(payloadLength(bytes("AB", 0))).isEqualTo(-1);
    }

    @Test
    void theLengthIsReadWithoutConsumingAnything() throws AjpFormatException {
        ByteBuffer in = ByteBuffer.wrap(bytes(0x12, 0x34, 0x01, 0x02, 0x02, 0x02));
        assertThat(AjpPackets.payloadLength(in, SIZE)).isEqualTo(0x0102);
        assertThat(in.position()).isZero();
        assertThat(in.remaining()).isEqualTo(6);
    }

    @Test
    void theLengthIsReadAtTheBuffersPosition() throws AjpFormatException {
        ByteBuffer in = ByteBuffer.wrap(bytes("xyz", 0x12, 0x34, 0x00, 0x05, 0x0A));
        in.position(3);
        assertThat(AjpPackets.payloadLength(in, SIZE)).isEqualTo(5);
        assertThat(in.position()).isEqualTo(3);
        in.limit(6);
        assertThat(AjpPackets.payloadLength(in, SIZE)).isEqualTo(-1);
    }

    @Test
    void theLengthNeedNotHaveArrived() throws AjpFormatException {
        assertThat(payloadLength(bytes(0x12, 0x34, 0x00, 0x01))).as("a CPing not yet here").isEqualTo(1);
        assertThat(payloadLength(ForwardRequestBuilder.framed(bytes(AjpPackets.CPING)))).isEqualTo(1);
    }

    @Test
    void aZeroLengthIsTheEmptyBodyChunk() throws AjpFormatException {
        assertThat(payloadLength(bytes(0x12, 0x34, 0x00, 0x00))).isZero();
    }

    @Test
    void theLengthOfAForwardRequestIsItsPayloadLength() throws AjpFormatException {
        ForwardRequestBuilder request = new ForwardRequestBuilder().header("Host", "h").header("User-Agent", "x".repeat(300));
        assertThat(payloadLength(request.packet())).isEqualTo(request.payload().length);
    }

    @Test
    void aPacketFillingThePacketSizeIsAccepted() throws AjpFormatException {
        assertThat(payloadLength(bytes(0x12, 0x34, 0x1F, 0xFC))).isEqualTo(SIZE - 4);
        assertThat(AjpPackets.payloadLength(ByteBuffer.wrap(bytes(0x12, 0x34, 0xFF, 0xFC)), AjpPackets.MAX_PACKET_SIZE))
                .isEqualTo(65532);
    }

    @Test
    void aPacketBeyondThePacketSizeIsAFormatError() {
        assertThatThrownBy(() -> payloadLength(bytes(0x12, 0x34, 0x1F, 0xFD)))
                .isInstanceOf(AjpFormatException.class)
                .hasMessageContaining("8193")
                .hasMessageContaining("8192");
        assertThatThrownBy(() -> payloadLength(bytes(0x12, 0x34, 0xFF, 0xFF))).isInstanceOf(AjpFormatException.class);
        assertThatThrownBy(() -> AjpPackets.payloadLength(ByteBuffer.wrap(bytes(0x12, 0x34, 0xFF, 0xFD)), AjpPackets.MAX_PACKET_SIZE))
                .isInstanceOf(AjpFormatException.class);
        assertThatThrownBy(() -> AjpPackets.payloadLength(ByteBuffer.wrap(bytes(0x12, 0x34, 0x00, 0x05)), 8))
                .isInstanceOf(AjpFormatException.class);
    }

    @Test
    void theContainersOwnMagicIsNotTheFrontEnds() {
        assertThatThrownBy(() -> payloadLength(bytes("AB", 0x00, 0x02, 0x05, 0x01)))
                .isInstanceOf(AjpFormatException.class)
                .hasMessageContaining("0x1234");
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET / HTTP/1.1\r\n", "POST", "PRI * HTTP/2.0", "\u0016\u0003\u0001\u0002\u0000"})
    void httpOrTlsOnTheAjpPortIsAFormatErrorThatDoesNotQuoteTheInput(String text) {
        byte[] input = text.getBytes(StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> payloadLength(input))
                .isInstanceOf(AjpFormatException.class)
                .isInstanceOf(java.io.IOException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(text.substring(0, 3)));
    }

    @ParameterizedTest
    @ValueSource(ints = {0x1235, 0x3412, 0x0000, 0x1200, 0x0034, 0x4142, 0xFFFF})
    void anyOtherMagicIsAFormatError(int magic) {
        assertThatThrownBy(() -> payloadLength(bytes(magic >>> 8, magic & 0xFF, 0, 1, 10)))
                .isInstanceOf(AjpFormatException.class);
    }

    @Property
    void everyLengthUpToThePacketSizeIsReadBack(@ForAll @IntRange(max = 0xFFFF) int length,
            @ForAll @IntRange(min = 16, max = 65536) int packetSize) throws AjpFormatException {
        ByteBuffer in = ByteBuffer.wrap(bytes(0x12, 0x34, length >>> 8, length & 0xFF));
        if (length <= packetSize - 4) {
            assertThat(AjpPackets.payloadLength(in, packetSize)).isEqualTo(length);
        } else {
            assertThatThrownBy(() -> AjpPackets.payloadLength(in, packetSize)).isInstanceOf(AjpFormatException.class);
        }
        assertThat(in.position()).isZero();
    }

    // bodyChunkLength: the payload of a request body packet is the data length (int) and the data

    @Test
    void anEmptyPayloadIsTheEndOfABodyOfUnknownLength() throws AjpFormatException {
        assertThat(AjpPackets.bodyChunkLength(new byte[0], 0, 0)).isZero();
        assertThat(AjpPackets.bodyChunkLength(bytes(0x7F, 0x7F), 2, 0)).as("nothing is read").isZero();
    }

    @Test
    void aZeroDataLengthIsAnEmptyChunk() throws AjpFormatException {
        assertThat(AjpPackets.bodyChunkLength(bytes(0, 0), 0, 2)).isZero();
    }

    @Test
    void theDataLengthIsReadFromThePayload() throws AjpFormatException {
        byte[] packet = ForwardRequestBuilder.bodyChunk(bytes("hello"));
        assertThat(AjpPackets.bodyChunkLength(packet, 4, packet.length - 4)).isEqualTo(5);
        byte[] big = ForwardRequestBuilder.bodyChunk(new byte[8186]);
        assertThat(big).hasSize(8192);
        assertThat(AjpPackets.bodyChunkLength(big, 4, big.length - 4)).isEqualTo(8186);
    }

    @Test
    void theDataMayBeShorterThanThePayload() throws AjpFormatException {
        assertThat(AjpPackets.bodyChunkLength(bytes(0, 2, "abcd"), 0, 6)).isEqualTo(2);
    }

    @Test
    void theDataLengthIsReadAtTheOffset() throws AjpFormatException {
        assertThat(AjpPackets.bodyChunkLength(bytes(0xFF, 0xFF, 0xFF, 0x01, 0x00, "x".repeat(256)), 3, 258)).isEqualTo(256);
    }

    @Test
    void dataBeyondThePayloadIsAFormatError() {
        assertThatThrownBy(() -> AjpPackets.bodyChunkLength(bytes(0, 6, "hello"), 0, 7))
                .isInstanceOf(AjpFormatException.class)
                .hasMessageContaining("6")
                .hasMessageContaining("5");
        assertThatThrownBy(() -> AjpPackets.bodyChunkLength(bytes(0xFF, 0xFF), 0, 2)).isInstanceOf(AjpFormatException.class);
        assertThatThrownBy(() -> AjpPackets.bodyChunkLength(bytes(0, 1), 0, 2)).isInstanceOf(AjpFormatException.class);
    }

    @Test
    void aOneBytePayloadCannotHoldTheLength() {
        assertThatThrownBy(() -> AjpPackets.bodyChunkLength(bytes(0, 0), 0, 1))
                .isInstanceOf(AjpFormatException.class)
                .hasMessageContaining("too short");
    }

    @Property
    void theDeclaredLengthIsAcceptedExactlyWhenItFits(@ForAll @IntRange(max = 0xFFFF) int declared,
            @ForAll @IntRange(min = 2, max = 65532) int payloadLength) throws AjpFormatException {
        byte[] payload = new byte[payloadLength];
        payload[0] = (byte) (declared >>> 8);
        payload[1] = (byte) declared;
        if (declared <= payloadLength - 2) {
            assertThat(AjpPackets.bodyChunkLength(payload, 0, payloadLength)).isEqualTo(declared);
        } else {
            assertThatThrownBy(() -> AjpPackets.bodyChunkLength(payload, 0, payloadLength))
                    .isInstanceOf(AjpFormatException.class);
        }
    }
}
