package dev.petrel.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.BodyFraming;
import dev.petrel.http.HeaderFields;
import dev.petrel.http.HeaderFieldsBuilder;
import dev.petrel.http.Methods;
import dev.petrel.http.RequestHead;
import dev.petrel.http.TargetForm;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link RequestFields} against RFC 9113 sections 8.2, 8.3 and 8.5. */
class RequestFieldsTest {
    private final RequestFields fields = new RequestFields();

    /** Feeds "name: value" pairs; returns the first reason, or end()'s. */
    String section(String... pairs) {
        for (int i = 0; i < pairs.length; i += 2) {
            // put the bytes at an offset, inside larger arrays, as a decoder's buffer would
            byte[] name = ("<" + pairs[i] + ">").getBytes(StandardCharsets.ISO_8859_1);
            byte[] value = ("<<" + pairs[i + 1] + ">").getBytes(StandardCharsets.ISO_8859_1);
            String reason = fields.field(name, 1, name.length - 2, value, 2, value.length - 3);
            if (reason != null) return reason;
        }
        return fields.end();
    }

    static final String[] GET = {":method", "GET", ":scheme", "https", ":authority", "example.com", ":path", "/a?b=c"};

    String request(String... more) {
        String[] all = new String[GET.length + more.length];
        System.arraycopy(GET, 0, all, 0, GET.length);
        System.arraycopy(more, 0, all, GET.length, more.length);
        return section(all);
    }

    @Test
    void aPlainRequest_section8_3_1() {
        assertThat(request("accept", "*/*", "host", "example.com", "te", "trailers", "x-empty", "")).isNull();
        assertThat(fields.method()).isSameAs(Methods.GET);
        assertThat(fields.scheme()).isEqualTo("https");
        assertThat(fields.authority()).isEqualTo("example.com");
        assertThat(fields.path()).isEqualTo("/a?b=c");
    }

    @Test
    void theSameValuesComeBackAsTheSameStrings() {
        assertThat(request()).isNull();
        String path = fields.path();
        String authority = fields.authority();
        fields.reset(false);
        assertThat(request()).isNull();
        assertThat(fields.path()).isSameAs(path);
        assertThat(fields.authority()).isSameAs(authority);
    }

    @Test
    void authorityIsOptionalAndHostMayComeWithIt_section8_3_1() {
        assertThat(section(":method", "POST", ":scheme", "http", ":path", "/", "host", "h")).isNull();
        assertThat(fields.authority()).isNull();
        fields.reset(false);
        assertThat(section(":method", "POST", ":scheme", "http", ":authority", "a", ":path", "/", "host", "h")).isNull();
        assertThat(fields.authority()).isEqualTo("a");
    }

    @Test
    void namesMustBeLowerCaseTokens_section8_2_1() {
        for (String name : new String[] {"Accept", "acc ept", "acc:ept", "acc\u00e9pt", "acc\u0000", ""}) {
            fields.reset(false);
            assertThat(request(name, "x")).as(name).isNotNull();
        }
        fields.reset(false);
        assertThat(request("x-ok_1.2~", "x")).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\u0000b", "a\rb", "a\nb", " a", "a ", "\ta", "a\t"})
    void valuesWithoutNulCrLfOrOuterWhitespace_section8_2_1(String value) {
        assertThat(request("x", value)).isNotNull();
        fields.reset(false);
        assertThat(section(":method", "GET", ":scheme", "https", ":path", "/" + value)).isNotNull();
    }

    @Test
    void innerWhitespaceAndObsTextAreFine_section8_2_1() {
        assertThat(request("x", "a b\tc \u00ff")).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"})
    void connectionSpecificFields_section8_2_2(String name) {
        assertThat(request(name, "x")).isNotNull();
        fields.reset(true);
        assertThat(section(name, "x")).as("in trailers too").isNotNull();
    }

    @Test
    void teOnlyTrailers_section8_2_2() {
        assertThat(request("te", "trailers")).isNull();
        fields.reset(false);
        assertThat(request("te", "Trailers")).isNull();
        fields.reset(false);
        assertThat(request("te", "gzip")).isNotNull();
        fields.reset(false);
        assertThat(request("te", "trailers, gzip")).isNotNull();
    }

    @Test
    void onlyTheFourRequestPseudoHeaders_section8_3() {
        assertThat(request(":status", "200")).isNotNull(); // and after a regular field anyway
        fields.reset(false);
        assertThat(section(":status", "200", ":method", "GET", ":scheme", "https", ":path", "/")).isNotNull();
        fields.reset(false);
        assertThat(section(":protocol", "websocket", ":method", "GET", ":scheme", "https", ":path", "/")).isNotNull();
        fields.reset(false);
        assertThat(section(":", "x", ":method", "GET", ":scheme", "https", ":path", "/")).isNotNull();
    }

    @Test
    void pseudoHeadersBeforeRegularFields_section8_3() {
        assertThat(section(":method", "GET", "accept", "*/*", ":scheme", "https", ":path", "/")).isNotNull();
    }

    @Test
    void pseudoHeadersNotRepeated_section8_3() {
        assertThat(section(":method", "GET", ":method", "GET", ":scheme", "https", ":path", "/")).isNotNull();
        fields.reset(false);
        assertThat(section(":method", "GET", ":scheme", "https", ":path", "/", ":path", "/")).isNotNull();
    }

    @Test
    void trailersHoldNoPseudoHeader_section8_1() {
        fields.reset(true);
        assertThat(section("x-checksum", "abc")).isNull();
        fields.reset(true);
        assertThat(section(":path", "/")).isNotNull();
    }

    @Test
    void requiredPseudoHeaders_section8_3_1() {
        assertThat(section(":scheme", "https", ":path", "/")).isNotNull();
        fields.reset(false);
        assertThat(section(":method", "GET", ":path", "/")).isNotNull();
        fields.reset(false);
        assertThat(section(":method", "GET", ":scheme", "https")).isNotNull();
    }

    @Test
    void pathRules_section8_3_1() {
        assertThat(section(":method", "GET", ":scheme", "https", ":path", "")).isNotNull();
        fields.reset(false);
        assertThat(section(":method", "GET", ":scheme", "https", ":path", "a/b")).isNotNull();
        fields.reset(false);
        assertThat(section(":method", "GET", ":scheme", "https", ":path", "*")).isNotNull();
        fields.reset(false);
        assertThat(section(":method", "OPTIONS", ":scheme", "https", ":path", "*")).isNull();
        assertThat(fields.path()).isEqualTo("*");
        fields.reset(false);
        assertThat(section(":method", "GET", ":scheme", "https", ":path", "/a b")).isNotNull();
        fields.reset(false);
        assertThat(section(":method", "GET", ":scheme", "https", ":path", "/a#b")).isNotNull();
        fields.reset(false);
        // other schemes are the server's business, but a path is never empty
        assertThat(section(":method", "GET", ":scheme", "foo", ":path", "x")).isNull();
    }

    @Test
    void noUserinfoInTheAuthority_section8_3_1() {
        assertThat(section(":method", "GET", ":scheme", "https", ":authority", "u@h", ":path", "/")).isNotNull();
        fields.reset(false);
        assertThat(section(":method", "GET", ":scheme", "https", ":authority", "h/x", ":path", "/")).isNotNull();
        fields.reset(false);
        assertThat(section(":method", "GET", ":scheme", "https", ":authority", "[::1]:8443", ":path", "/")).isNull();
    }

    @Test
    void methodIsATokenAndSchemeAScheme_section8_3_1() {
        assertThat(section(":method", "G(T", ":scheme", "https", ":path", "/")).isNotNull();
        fields.reset(false);
        assertThat(section(":method", "", ":scheme", "https", ":path", "/")).isNotNull();
        fields.reset(false);
        assertThat(section(":method", "GET", ":scheme", "1http", ":path", "/")).isNotNull();
        fields.reset(false);
        assertThat(section(":method", "PURGE", ":scheme", "http", ":path", "/")).isNull();
        assertThat(fields.method()).isEqualTo("PURGE");
    }

    @Test
    void connect_section8_5() {
        assertThat(section(":method", "CONNECT", ":authority", "example.com:443")).isNull();
        assertThat(fields.method()).isSameAs(Methods.CONNECT);
        assertThat(fields.authority()).isEqualTo("example.com:443");
        assertThat(fields.scheme()).isNull();
        assertThat(fields.path()).isNull();
        fields.reset(false);
        assertThat(section(":method", "CONNECT")).isNotNull();
        fields.reset(false);
        assertThat(section(":method", "CONNECT", ":authority", "h:443", ":scheme", "https")).isNotNull();
        fields.reset(false);
        assertThat(section(":method", "CONNECT", ":authority", "h:443", ":path", "/")).isNotNull();
    }

    @Test
    void extendedConnectOnlyWhereAnnounced_rfc8441_section4() {
        String[] websocket = {":method", "CONNECT", ":protocol", "websocket", ":scheme", "https", ":path", "/ws?x=1",
            ":authority", "example.com"};
        assertThat(section(websocket)).as("without the setting: an unknown pseudo-header").isNotNull();

        RequestFields extended = new RequestFields(true);
        assertThat(feed(extended, websocket)).isNull();
        assertThat(extended.method()).isSameAs(Methods.CONNECT);
        assertThat(extended.protocol()).isEqualTo("websocket");
        assertThat(extended.path()).isEqualTo("/ws?x=1");
        RequestHead head = new RequestHead();
        assertThat(extended.toHead(head, regular("sec-websocket-version", "13"), false)).isNull();
        assertThat(head.connectProtocol()).isEqualTo("websocket");
        assertThat(head.targetForm()).isEqualTo(TargetForm.ORIGIN);
        assertThat(head.decodedPath()).isEqualTo("/ws");
        assertThat(head.query()).isEqualTo("x=1");
        assertThat(head.host()).isEqualTo("example.com");
        assertThat(head.framing()).as("the stream carries the tunnel").isEqualTo(BodyFraming.FRAMED);

        extended.reset(false);
        assertThat(feed(extended, ":method", "CONNECT", ":protocol", "websocket", ":authority", "h")).isNotNull();
        extended.reset(false);
        assertThat(feed(extended, ":method", "GET", ":protocol", "websocket", ":scheme", "https", ":path", "/")).isNotNull();
        extended.reset(false);
        assertThat(feed(extended, ":method", "CONNECT", ":authority", "example.com:443")).as("a plain CONNECT as before").isNull();
        extended.toHead(head, regular(), false);
        assertThat(head.connectProtocol()).isNull();
        assertThat(head.targetForm()).isEqualTo(TargetForm.AUTHORITY);
    }

    private static String feed(RequestFields target, String... pairs) {
        for (int i = 0; i < pairs.length; i += 2) {
            byte[] name = pairs[i].getBytes(StandardCharsets.ISO_8859_1);
            byte[] value = pairs[i + 1].getBytes(StandardCharsets.ISO_8859_1);
            String reason = target.field(name, 0, name.length, value, 0, value.length);
            if (reason != null) return reason;
        }
        return target.end();
    }

    @Test
    void resetForgetsTheLastSection() {
        assertThat(request()).isNull();
        fields.reset(false);
        assertThat(fields.method()).isNull();
        assertThat(section(":method", "GET", ":scheme", "https", ":path", "/")).isNull();
        assertThat(fields.authority()).isNull();
    }

    @Test
    void reasonsAreFixedTexts() {
        assertThat(request("x", "secret\r\n")).doesNotContain("secret");
        fields.reset(false);
        assertThat(request("Secret", "x")).doesNotContain("Secret");
    }

    @Test
    void isPseudo() {
        byte[] b = ":path".getBytes(StandardCharsets.ISO_8859_1);
        assertThat(fields.isPseudo(b, 0, 5)).isTrue();
        assertThat(fields.isPseudo(b, 1, 4)).isFalse();
        assertThat(fields.isPseudo(b, 0, 0)).isFalse();
    }

    /** Regular fields as the connection keeps them: "name", "value" pairs. */
    static HeaderFields regular(String... pairs) {
        HeaderFieldsBuilder builder = new HeaderFieldsBuilder(64);
        for (int i = 0; i < pairs.length; i += 2) {
            byte[] name = pairs[i].getBytes(StandardCharsets.ISO_8859_1);
            byte[] value = pairs[i + 1].getBytes(StandardCharsets.ISO_8859_1);
            builder.add(name, 0, name.length, value, 0, value.length);
        }
        return builder.fields();
    }

    @Test
    void theHeadOfAGetSplitsItsPathFromItsQuery() {
        assertThat(request()).isNull();
        RequestHead head = new RequestHead();
        assertThat(fields.toHead(head, regular("accept", "*/*"), true)).isNull();
        assertThat(head.method()).isSameAs(Methods.GET);
        assertThat(head.target()).isEqualTo("/a?b=c");
        assertThat(head.targetForm()).isEqualTo(TargetForm.ORIGIN);
        assertThat(head.rawPath()).isEqualTo("/a");
        assertThat(head.decodedPath()).isEqualTo("/a");
        assertThat(head.query()).isEqualTo("b=c");
        assertThat(head.host()).isEqualTo("example.com");
        assertThat(head.framing()).isEqualTo(BodyFraming.NONE);
        assertThat(head.hasBody()).isFalse();
    }

    @Test
    void aBodyIsOfItsDeclaredLengthOrOfUnknownLength() {
        assertThat(section(":method", "POST", ":scheme", "http", ":path", "/up", "host", "h")).isNull();
        RequestHead head = new RequestHead();
        assertThat(fields.toHead(head, regular("host", "h", "content-length", "5", "content-length", "5"), false)).isNull();
        assertThat(head.host()).as("the host field without :authority").isEqualTo("h");
        assertThat(head.framing()).isEqualTo(BodyFraming.LENGTH);
        assertThat(head.contentLength()).isEqualTo(5);
        assertThat(fields.toHead(head, regular("host", "h", "expect", "100-continue"), false)).isNull();
        assertThat(head.framing()).isEqualTo(BodyFraming.FRAMED);
        assertThat(head.contentLength()).isEqualTo(-1);
        assertThat(head.hasBody()).isTrue();
        assertThat(head.expectContinue()).isTrue();
    }

    @Test
    void aConnectIsForItsAuthority_section8_5() {
        assertThat(section(":method", "CONNECT", ":authority", "example.com:443")).isNull();
        RequestHead head = new RequestHead();
        assertThat(fields.toHead(head, regular(), false)).isNull();
        assertThat(head.targetForm()).isEqualTo(TargetForm.AUTHORITY);
        assertThat(head.target()).isEqualTo("example.com:443");
        assertThat(head.decodedPath()).isEmpty();
        assertThat(head.host()).isEqualTo("example.com:443");
    }

    @Test
    void anAsteriskIsThePathOfAnOptions() {
        assertThat(section(":method", "OPTIONS", ":scheme", "https", ":authority", "h", ":path", "*")).isNull();
        RequestHead head = new RequestHead();
        assertThat(fields.toHead(head, regular(), true)).isNull();
        assertThat(head.targetForm()).isEqualTo(TargetForm.ASTERISK);
        assertThat(head.decodedPath()).isEqualTo("*");
    }

    @Test
    void aHeadThatLiesAboutItsBodyOrItsHostIsMalformed_section8_1_1() {
        assertThat(request()).isNull();
        RequestHead head = new RequestHead();
        assertThat(fields.toHead(head, regular("content-length", "5", "content-length", "6"), false))
                .isEqualTo("invalid content-length");
        assertThat(fields.toHead(head, regular("content-length", "-1"), false)).isEqualTo("invalid content-length");
        assertThat(fields.toHead(head, regular("content-length", "5"), true)).isEqualTo("content-length without DATA");
        assertThat(fields.toHead(head, regular("content-length", "0"), true)).isNull();
        assertThat(fields.toHead(head, regular("host", "other.example"), true)).isEqualTo(":authority and host differ");
        assertThat(fields.toHead(head, regular("host", "EXAMPLE.com"), true)).isNull();
    }

    @Test
    void aSectionCutAtItsSizeLimitStillMakesAHeadToAnswer() {
        fields.reset(false);
        RequestHead head = new RequestHead();
        assertThat(fields.toHead(head, regular(), true)).isNull();
        assertThat(head.method()).isEqualTo(Methods.GET);
        assertThat(head.target()).isEqualTo("/");
        assertThat(head.host()).isNull();
    }
}
