package dev.petrel.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ResponseHeadEncoderTest {
    private final ByteSink sink = new ByteSink(8);

    private String written() {
        return new String(sink.toByteArray(), StandardCharsets.ISO_8859_1);
    }

    @Test
    void statusLinesOfKnownCodesCarryTheirReason() {
        ResponseHeadEncoder.statusLine(200, sink);
        ResponseHeadEncoder.statusLine(404, sink);
        ResponseHeadEncoder.statusLine(100, sink);
        ResponseHeadEncoder.statusLine(505, sink);
        assertThat(written()).isEqualTo("HTTP/1.1 200 OK\r\nHTTP/1.1 404 Not Found\r\n"
                + "HTTP/1.1 100 Continue\r\nHTTP/1.1 505 HTTP Version Not Supported\r\n");
    }

    @Test
    void everyKnownStatusLineMatchesHttpStatus() {
        for (int status = 100; status < 600; status++) {
            sink.clear();
            ResponseHeadEncoder.statusLine(status, sink);
            assertThat(written()).isEqualTo("HTTP/1.1 " + status + " " + HttpStatus.reason(status) + "\r\n");
        }
    }

    @Test
    void statusLinesOfUnknownCodesKeepTheSpaceBeforeAnEmptyReason() {
        // status-line = HTTP-version SP status-code SP [ reason-phrase ] (RFC 9112 section 4)
        ResponseHeadEncoder.statusLine(299, sink);
        ResponseHeadEncoder.statusLine(799, sink);
        ResponseHeadEncoder.statusLine(999, sink);
        assertThat(written()).isEqualTo("HTTP/1.1 299 \r\nHTTP/1.1 799 \r\nHTTP/1.1 999 \r\n");
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 0, 99, 1000, Integer.MAX_VALUE})
    void statusCodesMustHaveThreeDigits(int status) {
        assertThatThrownBy(() -> ResponseHeadEncoder.statusLine(status, sink)).isInstanceOf(IllegalArgumentException.class);
        assertThat(sink.length()).isZero();
    }

    @Test
    void fieldsAreWrittenAsNameColonSpaceValue() {
        ResponseHeadEncoder.field("X-Custom", "a value\twith tab", sink);
        ResponseHeadEncoder.field("Empty", "", sink);
        ResponseHeadEncoder.field("Latin", "caf\u00e9", sink);
        assertThat(written()).isEqualTo("X-Custom: a value\twith tab\r\nEmpty: \r\nLatin: caf\u00e9\r\n");
        assertThat(sink.toByteArray()[sink.length() - 3]).isEqualTo((byte) 0xE9);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Bad Name", "a:b", "X\r\nInjected", "caf\u00e9", "tab\t", "(x)", "\u0100"})
    void invalidNamesAreRefusedBeforeAnythingIsWritten(String name) {
        assertThatThrownBy(() -> ResponseHeadEncoder.field(name, "v", sink)).isInstanceOf(IllegalArgumentException.class);
        assertThat(sink.length()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\r\nSet-Cookie: x", "a\rb", "a\nb", "\u0000", "a\u007f", "\u001b", "\u0100", "\u20ac"})
    void valuesThatCouldSplitTheResponseAreRefused(String value) {
        assertThatThrownBy(() -> ResponseHeadEncoder.field("X", value, sink)).isInstanceOf(IllegalArgumentException.class);
        assertThat(sink.length()).isZero();
    }

    @Test
    void preEncodedNamesTakeBytesAndNumbers() {
        ResponseHeadEncoder.field(ResponseHeadEncoder.DATE, "Sun, 06 Nov 1994 08:49:37 GMT".getBytes(StandardCharsets.US_ASCII), sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONTENT_LENGTH, 0, sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONTENT_LENGTH, Long.MAX_VALUE, sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONTENT_TYPE, "text/plain".getBytes(StandardCharsets.US_ASCII), sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONNECTION, "close".getBytes(StandardCharsets.US_ASCII), sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.TRANSFER_ENCODING, "chunked".getBytes(StandardCharsets.US_ASCII), sink);
        assertThat(written()).isEqualTo("Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
                + "Content-Length: 0\r\n"
                + "Content-Length: 9223372036854775807\r\n"
                + "Content-Type: text/plain\r\n"
                + "Connection: close\r\n"
                + "Transfer-Encoding: chunked\r\n");
    }

    @Test
    void negativeNumbersAreRefused() {
        assertThatThrownBy(() -> ResponseHeadEncoder.field(ResponseHeadEncoder.CONTENT_LENGTH, -1, sink))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aWholeHeadParsesBackAsAResponseWouldBeRead() {
        ResponseHeadEncoder.statusLine(201, sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONTENT_LENGTH, 12, sink);
        ResponseHeadEncoder.field("Location", "/items/7", sink);
        ResponseHeadEncoder.end(sink);
        assertThat(written()).isEqualTo("HTTP/1.1 201 Created\r\nContent-Length: 12\r\nLocation: /items/7\r\n\r\n");
    }

    @Test
    void httpStatusKnowsWhichResponsesHaveNoBody() {
        assertThat(HttpStatus.forbidsBody(100)).isTrue();
        assertThat(HttpStatus.forbidsBody(101)).isTrue();
        assertThat(HttpStatus.forbidsBody(199)).isTrue();
        assertThat(HttpStatus.forbidsBody(204)).isTrue();
        assertThat(HttpStatus.forbidsBody(304)).isTrue();
        assertThat(HttpStatus.forbidsBody(200)).isFalse();
        assertThat(HttpStatus.forbidsBody(205)).isFalse();
        assertThat(HttpStatus.forbidsBody(404)).isFalse();
        assertThat(HttpStatus.reason(413)).isEqualTo("Content Too Large");
        assertThat(HttpStatus.reason(299)).isEmpty();
        assertThat(HttpStatus.reason(-5)).isEmpty();
        assertThat(HttpStatus.reason(600)).isEmpty();
    }
}
