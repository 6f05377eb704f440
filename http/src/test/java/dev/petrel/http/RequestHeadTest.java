package dev.petrel.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link RequestHead}: the path decoded once for every protocol, and the head other protocols fill. */
class RequestHeadTest {
    private static RequestHead parsed(RequestParser parser, String head) {
        parser.reset();
        ByteBuffer in = ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1));
        assertThat(parser.parse(in)).isEqualTo(ParseStatus.COMPLETE);
        return parser.head();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
        "GET /a%20b?q=%20 HTTP/1.1|/a b",
        "GET http://h/caf%C3%A9 HTTP/1.1|/caf\u00e9",
        "OPTIONS * HTTP/1.1|*",
        "CONNECT h:443 HTTP/1.1|''",
        "GET /bad%zz HTTP/1.1|null"})
    void theParsersPathIsDecodedByItsForm(String line, String decoded) {
        RequestHead head = parsed(new RequestParser(), line + "\r\nHost: h\r\n\r\n");
        assertThat(head.decodedPath()).isEqualTo(decoded);
    }

    @Test
    void aRepeatedTargetIsDecodedOnceAndAChangedOneAgain() {
        RequestParser parser = new RequestParser();
        String first = parsed(parser, "GET /a%20b HTTP/1.1\r\nHost: h\r\n\r\n").decodedPath();
        assertThat(parsed(parser, "GET /a%20b HTTP/1.1\r\nHost: h\r\n\r\n").decodedPath()).isSameAs(first);
        assertThat(parsed(parser, "GET /c%20d HTTP/1.1\r\nHost: h\r\n\r\n").decodedPath()).isEqualTo("/c d");
        assertThat(parsed(parser, "GET /bad%zz HTTP/1.1\r\nHost: h\r\n\r\n").decodedPath()).isNull();
        assertThat(parsed(parser, "GET /a%20b HTTP/1.1\r\nHost: h\r\n\r\n").decodedPath()).isEqualTo("/a b");
    }

    @Test
    void anotherProtocolFillsTheSameValue() {
        HeaderFieldsBuilder fields = new HeaderFieldsBuilder(64);
        byte[] field = "hostexample.com".getBytes(StandardCharsets.ISO_8859_1);
        fields.add(field, 0, 4, 4, 11);
        RequestHead head = new RequestHead();
        assertThat(head.framing()).isEqualTo(BodyFraming.NONE);
        assertThat(head.contentLength()).isEqualTo(-1);

        head.line("POST", "/up%2Fload?x=1", TargetForm.ORIGIN, "/up%2Fload", "x=1", HttpVersion.HTTP_2);
        head.fields(fields.fields(), "example.com");
        head.body(BodyFraming.FRAMED, -1, true);
        assertThat(head.method()).isEqualTo("POST");
        assertThat(head.target()).isEqualTo("/up%2Fload?x=1");
        assertThat(head.decodedPath()).isEqualTo("/up/load");
        assertThat(head.query()).isEqualTo("x=1");
        assertThat(head.host()).isEqualTo("example.com");
        assertThat(head.headers().first("Host")).isEqualTo("example.com");
        assertThat(head.hasBody()).as("a body of unknown length").isTrue();
        assertThat(head.expectContinue()).isTrue();

        head.line("CONNECT", "example.com:443", TargetForm.AUTHORITY, null, null, HttpVersion.HTTP_2);
        head.body(BodyFraming.NONE, -1, false);
        assertThat(head.decodedPath()).isEmpty();
        assertThat(head.hasBody()).isFalse();
        assertThat(head.toString()).isEqualTo("CONNECT example.com:443 HTTP/2.0");
    }
}
