package dev.petrel.ajp;

import static dev.petrel.ajp.ForwardRequestBuilder.HEADER_NAMES;
import static dev.petrel.ajp.ForwardRequestBuilder.METHOD_NAMES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.http.BodyFraming;
import dev.petrel.http.HeaderFields;
import dev.petrel.http.HttpError;
import dev.petrel.http.HttpLimits;
import dev.petrel.http.HttpVersion;
import dev.petrel.http.RequestHead;
import dev.petrel.http.TargetForm;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Forward-request packets built as mod_jk and mod_proxy_ajp send them, and what the parser must
 * make of them: the head, or the status a refused request is answered with.
 */
class ForwardRequestParserTest {
    private static final String CUT_SHORT = "cut short";

    private ForwardRequestParser parser = new ForwardRequestParser(HttpLimits.DEFAULT);

    private HttpError parse(ForwardRequestBuilder request) {
        byte[] payload = request.payload();
        return parser.parse(payload, 0, payload.length);
    }

    private AjpRequestHead parsed(ForwardRequestBuilder request) {
        assertThat(parse(request)).as("parse error").isNull();
        return parser.head();
    }

    private void assertRefused(ForwardRequestBuilder request, int status) {
        HttpError error = parse(request);
        assertThat(error).as("parse error").isNotNull();
        assertThat(error.status()).isEqualTo(status);
    }

    private static ForwardRequestBuilder get() {
        return new ForwardRequestBuilder();
    }

    /** A POST over TLS as mod_jk forwards it, with every kind of header and every attribute. */
    static ForwardRequestBuilder richRequest() {
        return new ForwardRequestBuilder()
                .method(ForwardRequestBuilder.POST)
                .protocol("HTTP/1.1")
                .uri("/app/upload")
                .remoteAddress("203.0.113.7")
                .remoteHost("client.example.net")
                .serverName("www.example.com")
                .serverPort(443)
                .ssl(true)
                .header("Host", "www.example.com")
                .header("User-Agent", "curl/8.5.0")
                .header("Accept", "*/*")
                .header("Content-Type", "text/plain; charset=utf-8")
                .header("Content-Length", "5")
                .header("Cookie", "a=1; b=2")
                .header("X-Forwarded-For", "198.51.100.1")
                .stringHeader("x-latin", "caf\u00e9")
                .context("/app")
                .servletPath("/upload")
                .remoteUser("alice")
                .authType("Basic")
                .queryString("x=1&y=%20")
                .route("node1")
                .sslCert("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
                .sslCipher("TLS_AES_128_GCM_SHA256")
                .sslSession("5f3a")
                .sslKeySize(128)
                .secret("s3cret")
                .requestAttribute("AJP_REMOTE_PORT", "54321")
                .requestAttribute("AJP_LOCAL_ADDR", "192.0.2.1");
    }

    /** The same with a method that has no code, forwarded as the stored_method attribute. */
    static ForwardRequestBuilder richStoredMethodRequest() {
        return richRequest().storedMethod("PATCH");
    }

    @Test
    void aGetAsModProxyAjpSendsItIsDecoded() {
        AjpRequestHead head = parsed(new ForwardRequestBuilder()
                .method(ForwardRequestBuilder.GET)
                .protocol("HTTP/1.1")
                .uri("/index.jsp")
                .remoteAddress("198.51.100.23")
                .remoteHost(null)
                .serverName("www.example.com")
                .serverPort(80)
                .ssl(false)
                .header("Host", "www.example.com")
                .header("User-Agent", "Mozilla/5.0")
                .header("Accept", "text/html")
                .header("Accept-Encoding", "gzip, br")
                .header("Sec-Fetch-Mode", "navigate")
                .queryString("lang=en")
                .requestAttribute("AJP_LOCAL_ADDR", "192.0.2.1")
                .requestAttribute("AJP_REMOTE_PORT", "40312"));
        assertThat(head.method()).isEqualTo("GET");
        assertThat(head.version()).isEqualTo(HttpVersion.HTTP_1_1);
        assertThat(head.uri()).isEqualTo("/index.jsp");
        assertThat(head.query()).isEqualTo("lang=en");
        assertThat(head.target()).isEqualTo("/index.jsp?lang=en");
        assertThat(head.remoteAddress()).isEqualTo("198.51.100.23");
        assertThat(head.remoteHost()).isNull();
        assertThat(head.serverName()).isEqualTo("www.example.com");
        assertThat(head.serverPort()).isEqualTo(80);
        assertThat(head.ssl()).isFalse();
        assertThat(head.headers().toString()).isEqualTo("Host: www.example.com\nUser-Agent: Mozilla/5.0\n"
                + "Accept: text/html\nAccept-Encoding: gzip, br\nSec-Fetch-Mode: navigate\n");
        assertThat(head.contentLength()).isEqualTo(-1);
        assertThat(head.chunked()).isFalse();
        assertThat(head.hasBody()).isFalse();
        assertThat(head.attributeCount()).isEqualTo(2);
        assertThat(head.attribute("AJP_REMOTE_PORT")).isEqualTo("40312");
        assertThat(head.toString()).isEqualTo("GET /index.jsp?lang=en HTTP/1.1");
        RequestHead request = head.request();
        assertThat(request.toString()).isEqualTo("GET /index.jsp?lang=en HTTP/1.1");
        assertThat(request.targetForm()).isEqualTo(TargetForm.ORIGIN);
        assertThat(request.decodedPath()).isEqualTo("/index.jsp");
        assertThat(request.query()).isEqualTo("lang=en");
        assertThat(request.host()).isEqualTo("www.example.com");
        assertThat(request.headers()).isSameAs(head.headers());
        assertThat(request.framing()).isEqualTo(BodyFraming.NONE);
    }

    @Test
    void theRequestsHostIsTheServerNameWhenTheClientSentNoHost() {
        RequestHead request = parsed(new ForwardRequestBuilder().uri("/caf%C3%A9").serverName("backend.example")).request();
        assertThat(request.host()).isEqualTo("backend.example");
        assertThat(request.decodedPath()).isEqualTo("/caf\u00e9");
    }

    @Test
    void aPostOverTlsAsModJkSendsItIsDecoded() {
        AjpRequestHead head = parsed(richRequest());
        assertThat(head.method()).isEqualTo("POST");
        assertThat(head.version()).isEqualTo(HttpVersion.HTTP_1_1);
        assertThat(head.uri()).isEqualTo("/app/upload");
        assertThat(head.target()).isEqualTo("/app/upload?x=1&y=%20");
        assertThat(head.remoteAddress()).isEqualTo("203.0.113.7");
        assertThat(head.remoteHost()).isEqualTo("client.example.net");
        assertThat(head.serverName()).isEqualTo("www.example.com");
        assertThat(head.serverPort()).isEqualTo(443);
        assertThat(head.ssl()).isTrue();
        assertThat(head.headers().size()).isEqualTo(8);
        assertThat(head.headers().first("content-type")).isEqualTo("text/plain; charset=utf-8");
        assertThat(head.headers().first("X-LATIN")).isEqualTo("caf\u00e9");
        assertThat(head.contentLength()).isEqualTo(5);
        assertThat(head.hasBody()).isTrue();
        assertThat(head.request().framing()).isEqualTo(BodyFraming.LENGTH);
        assertThat(head.request().contentLength()).isEqualTo(5);
        assertThat(head.remoteUser()).isEqualTo("alice");
        assertThat(head.authType()).isEqualTo("Basic");
        assertThat(head.route()).isEqualTo("node1");
        assertThat(head.sslCertificate()).isEqualTo("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
        assertThat(head.sslCipher()).isEqualTo("TLS_AES_128_GCM_SHA256");
        assertThat(head.sslSession()).isEqualTo("5f3a");
        assertThat(head.sslKeySize()).isEqualTo(128);
        assertThat(head.secret()).isEqualTo("s3cret");
        assertThat(head.attributeCount()).isEqualTo(2);
    }

    @Test
    void thePayloadMayLieAnywhereInTheArrayAndNothingAroundItIsRead() {
        byte[] payload = richRequest().payload();
        byte[] buffer = new byte[payload.length + 20];
        Arrays.fill(buffer, (byte) 0x41);
        System.arraycopy(payload, 0, buffer, 7, payload.length);
        assertThat(parser.parse(buffer, 7, payload.length)).isNull();
        assertThat(parser.head().target()).isEqualTo("/app/upload?x=1&y=%20");
        assertThat(parser.head().headers().first("Host")).isEqualTo("www.example.com");
        assertThat(parser.head().attribute("AJP_LOCAL_ADDR")).isEqualTo("192.0.2.1");
    }

    @Test
    void theHeadIsCopiedOutOfThePayloadSoTheReadBufferMayBeReused() {
        byte[] payload = richRequest().payload();
        assertThat(parser.parse(payload, 0, payload.length)).isNull();
        Arrays.fill(payload, (byte) 0);
        AjpRequestHead head = parser.head();
        assertThat(head.headers().first("Host")).isEqualTo("www.example.com");
        assertThat(head.headers().name(7)).isEqualTo("x-latin");
        assertThat(head.headers().value(7)).isEqualTo("caf\u00e9");
        assertThat(head.uri()).isEqualTo("/app/upload");
    }

    @ParameterizedTest
    @ValueSource(ints = {AjpPackets.SHUTDOWN, AjpPackets.PING, AjpPackets.CPING, 0})
    void aPacketOfAnotherTypeIsTheCallersMistake(int type) {
        byte[] payload = {(byte) type, 2};
        assertThatThrownBy(() -> parser.parse(payload, 0, payload.length)).isInstanceOf(IllegalArgumentException.class);
    }

    @Nested
    class Methods {
        static IntStream codes() {
            return IntStream.rangeClosed(1, 27);
        }

        @ParameterizedTest
        @MethodSource("codes")
        void everyMethodCodeNamesItsMethod(int code) {
            assertThat(parsed(get().method(code)).method()).isEqualTo(METHOD_NAMES.get(code));
        }

        @Test
        void theCommonCodesAreTheOnesEveryFrontEndUses() {
            assertThat(parsed(get().method(1)).method()).isEqualTo("OPTIONS");
            assertThat(parsed(get().method(2)).method()).isEqualTo("GET");
            assertThat(parsed(get().method(3)).method()).isEqualTo("HEAD");
            assertThat(parsed(get().method(4)).method()).isEqualTo("POST");
            assertThat(parsed(get().method(5)).method()).isEqualTo("PUT");
            assertThat(parsed(get().method(6)).method()).isEqualTo("DELETE");
            assertThat(parsed(get().method(7)).method()).isEqualTo("TRACE");
        }

        @ParameterizedTest
        @ValueSource(strings = {"PATCH", "CONNECT", "M-SEARCH", "X_CUSTOM", "purge", "BREW~1"})
        void aMethodWithoutCodeIsTheStoredMethodAttribute(String method) {
            AjpRequestHead head = parsed(get().storedMethod(method));
            assertThat(head.method()).isEqualTo(method);
            assertThat(head.toString()).startsWith(method + " /");
        }

        @Test
        void theStoredMethodMayComeAfterOtherAttributes() {
            AjpRequestHead head = parsed(get().queryString("a=b").remoteUser("u").storedMethod("PATCH").route("r"));
            assertThat(head.method()).isEqualTo("PATCH");
            assertThat(head.target()).isEqualTo("/?a=b");
            assertThat(head.route()).isEqualTo("r");
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "BAD METHOD", "GET\r\n", "PA(TCH)", "caf\u00e9", "A/B", "X:Y"})
        void aStoredMethodThatIsNotATokenIsRefused(String method) {
            assertRefused(get().storedMethod(method), 400);
        }

        @Test
        void anAbsentStoredMethodIsRefused() {
            assertRefused(get().storedMethod(null), 400);
        }

        @Test
        void theStoredMethodCodeWithoutTheAttributeIsRefused() {
            assertRefused(get().method(ForwardRequestBuilder.STORED_METHOD), 400);
            assertRefused(get().method(ForwardRequestBuilder.STORED_METHOD).queryString("a").secret("s"), 400);
        }

        @ParameterizedTest
        @ValueSource(ints = {0, 28, 29, 0x7F, 0x80, 0xFE})
        void anUnknownMethodCodeIsRefused(int code) {
            assertRefused(get().method(code), 400);
        }
    }

    @Nested
    class Protocols {
        @Test
        void http11AndHttp10AreTheVersionsSpoken() {
            assertThat(parsed(get().protocol("HTTP/1.1")).version()).isEqualTo(HttpVersion.HTTP_1_1);
            assertThat(parsed(get().protocol("HTTP/1.0")).version()).isEqualTo(HttpVersion.HTTP_1_0);
        }

        @ParameterizedTest
        @ValueSource(strings = {"HTTP/2.0", "HTTP/0.9", "HTTP/1.2", "HTTP/2", "http/1.1", "HTTP/1.1 ", "HTTP/1", "", "HTTPS/1.1"})
        void anyOtherProtocolIsAnsweredWith505(String protocol) {
            assertRefused(get().protocol(protocol), 505);
        }

        @Test
        void anAbsentProtocolIsAnsweredWith505() {
            assertRefused(get().protocol(null), 505);
        }
    }

    @Nested
    class Uris {
        @ParameterizedTest
        @ValueSource(strings = {"/", "*", "/a/b", "/a%20b", "/caf%C3%A9", "/a;jsessionid=1", "/a/./b/../c", "//x", "/~u/"})
        void anOriginFormPathOrAsteriskIsAccepted(String uri) {
            AjpRequestHead head = parsed(get().uri(uri));
            assertThat(head.uri()).isEqualTo(uri);
            assertThat(head.target()).isEqualTo(uri);
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "a", "index.html", "http://h/x", "**", "?q", "/a b", "/a\tb", "/a\u0000b", "/a\u007fb",
            "/a\r\nb", "/a\u001bb", " /", "/ "})
        void anythingElseIsRefused(String uri) {
            assertRefused(get().uri(uri), 400);
        }

        @Test
        void anAbsentUriIsRefused() {
            assertRefused(get().uri(null), 400);
        }

        @Test
        void theQueryIsAnAttributeAndTheTargetJoinsThemWithAQuestionMark() {
            AjpRequestHead head = parsed(get().uri("/search").queryString("q=a%20b&lang=en"));
            assertThat(head.uri()).isEqualTo("/search");
            assertThat(head.query()).isEqualTo("q=a%20b&lang=en");
            assertThat(head.target()).isEqualTo("/search?q=a%20b&lang=en");
        }

        @Test
        void withoutQueryTheTargetIsTheUri() {
            AjpRequestHead head = parsed(get().uri("/search"));
            assertThat(head.query()).isNull();
            assertThat(head.target()).isEqualTo("/search");
        }
    }

    @Nested
    class ClientAndServer {
        @Test
        void theFrontEndsViewOfTheConnectionIsKept() {
            AjpRequestHead head = parsed(get()
                    .remoteAddress("2001:db8::7")
                    .remoteHost("client.example.net")
                    .serverName("shop.example.com")
                    .serverPort(8443)
                    .ssl(true));
            assertThat(head.remoteAddress()).isEqualTo("2001:db8::7");
            assertThat(head.remoteHost()).isEqualTo("client.example.net");
            assertThat(head.serverName()).isEqualTo("shop.example.com");
            assertThat(head.serverPort()).isEqualTo(8443);
            assertThat(head.ssl()).isTrue();
        }

        @Test
        void portsUseAllSixteenBits() {
            assertThat(parsed(get().serverPort(65535)).serverPort()).isEqualTo(65535);
            assertThat(parsed(get().serverPort(0)).serverPort()).isZero();
            assertThat(parsed(get().serverPort(256)).serverPort()).isEqualTo(256);
        }

        @Test
        void absentStringsAreNull() {
            AjpRequestHead head = parsed(get().remoteAddress(null).remoteHost(null).serverName(null));
            assertThat(head.remoteAddress()).isNull();
            assertThat(head.remoteHost()).isNull();
            assertThat(head.serverName()).isNull();
        }

        @Test
        void emptyStringsAreEmptyNotNull() {
            AjpRequestHead head = parsed(get().remoteHost("").serverName(""));
            assertThat(head.remoteHost()).isEmpty();
            assertThat(head.serverName()).isEmpty();
        }
    }

    @Nested
    class Headers {
        static IntStream codes() {
            return IntStream.rangeClosed(0xA001, 0xA00E);
        }

        @ParameterizedTest
        @MethodSource("codes")
        void everyCodedNameIsSpelledOut(int code) {
            String value = code == ForwardRequestBuilder.SC_CONTENT_LENGTH ? "12" : "v" + code;
            AjpRequestHead head = parsed(get().codedHeader(code, value));
            HeaderFields headers = head.headers();
            assertThat(headers.size()).isEqualTo(1);
            assertThat(headers.name(0)).isEqualTo(HEADER_NAMES.get(code & 0xFF));
            assertThat(headers.value(0)).isEqualTo(value);
            assertThat(headers.first(HEADER_NAMES.get(code & 0xFF).toUpperCase())).isEqualTo(value);
        }

        @Test
        void theCodedNamesAreTheOnesHttpUses() {
            AjpRequestHead head = parsed(get()
                    .codedHeader(0xA00B, "h")
                    .codedHeader(0xA008, "0")
                    .codedHeader(0xA00E, "ua")
                    .codedHeader(0xA005, "Basic YTpi")
                    .codedHeader(0xA009, "c=1"));
            assertThat(head.headers().toString())
                    .isEqualTo("Host: h\nContent-Length: 0\nUser-Agent: ua\nAuthorization: Basic YTpi\nCookie: c=1\n");
        }

        @Test
        void stringNamesAreKeptAsSent() {
            AjpRequestHead head = parsed(get()
                    .stringHeader("x-MiXeD-Case", "1")
                    .stringHeader("X-Forwarded-Proto", "https")
                    .stringHeader("host", "lower-case host sent as a string"));
            HeaderFields headers = head.headers();
            assertThat(headers.name(0)).isEqualTo("x-MiXeD-Case");
            assertThat(headers.name(1)).isEqualTo("X-Forwarded-Proto");
            assertThat(headers.name(2)).isEqualTo("host");
            assertThat(headers.first("X-MIXED-CASE")).isEqualTo("1");
            assertThat(headers.first("Host")).isEqualTo("lower-case host sent as a string");
        }

        @Test
        void valuesKeepEveryByteAsIso88591() {
            byte[] value = new byte[128];
            for (int i = 0; i < value.length; i++) value[i] = (byte) (0x80 + i);
            AjpRequestHead head = parsed(get()
                    .stringHeader("X-Obs".getBytes(StandardCharsets.US_ASCII), value)
                    .stringHeader("X-Latin", "caf\u00e9 \u00ff\u00a0")
                    .codedHeader(ForwardRequestBuilder.SC_REFERER, "/\u00e9t\u00e9"));
            assertThat(head.headers().value(0)).isEqualTo(new String(value, StandardCharsets.ISO_8859_1));
            assertThat(head.headers().value(0).getBytes(StandardCharsets.ISO_8859_1)).isEqualTo(value);
            assertThat(head.headers().first("x-latin")).isEqualTo("caf\u00e9 \u00ff\u00a0");
            assertThat(head.headers().first("Referer")).isEqualTo("/\u00e9t\u00e9");
        }

        @Test
        void orderAndRepeatedNamesAreKept() {
            AjpRequestHead head = parsed(get()
                    .header("Cookie", "a=1")
                    .header("Accept", "text/html")
                    .stringHeader("cookie", "b=2")
                    .header("COOKIE", "c=3"));
            HeaderFields headers = head.headers();
            assertThat(headers.size()).isEqualTo(4);
            assertThat(headers.all("Cookie")).containsExactly("a=1", "b=2", "c=3");
            assertThat(headers.first("cookie")).isEqualTo("a=1");
            assertThat(headers.name(1)).isEqualTo("Accept");
            assertThat(headers.contains("ACCEPT")).isTrue();
            assertThat(headers.contains("Accept-Language")).isFalse();
        }

        @Test
        void anAbsentValueIsEmpty() {
            AjpRequestHead head = parsed(get().stringHeader("X-None", null).codedHeader(ForwardRequestBuilder.SC_PRAGMA, null));
            assertThat(head.headers().value(0)).isEmpty();
            assertThat(head.headers().value(1)).isEmpty();
            assertThat(head.headers().name(1)).isEqualTo("Pragma");
        }

        @Test
        void anEmptyValueIsEmpty() {
            assertThat(parsed(get().stringHeader("X-Empty", "")).headers().first("x-empty")).isEmpty();
        }

        @Test
        void anAbsentOrEmptyNameIsRefused() {
            assertRefused(get().stringHeader(null, "v"), 400);
            assertRefused(get().stringHeader("", "v"), 400);
        }

        @ParameterizedTest
        @ValueSource(ints = {0xA000, 0xA00F, 0xA010, 0xA07F, 0xA0FF})
        void anUnknownHeaderCodeIsRefused(int code) {
            assertRefused(get().header("Host", "h").codedHeader(code, "v"), 400);
        }

        @Test
        void noHeadersAtAllIsFine() {
            AjpRequestHead head = parsed(get());
            assertThat(head.headers().size()).isZero();
            assertThat(head.headers().first("Host")).isNull();
        }

        @Test
        void asManyHeadersAsTheLimitAreAccepted() {
            parser = new ForwardRequestParser(HttpLimits.DEFAULT.withMaxHeaderCount(3));
            AjpRequestHead head = parsed(get().header("Host", "h").header("A", "1").header("B", "2"));
            assertThat(head.headers().size()).isEqualTo(3);
        }

        @Test
        void oneHeaderAboveTheLimitIsAnsweredWith431() {
            parser = new ForwardRequestParser(HttpLimits.DEFAULT.withMaxHeaderCount(3));
            assertRefused(get().header("Host", "h").header("A", "1").header("B", "2").header("C", "3"), 431);
        }

        @Test
        void theDeclaredCountIsWhatTheLimitIsCheckedAgainst() {
            parser = new ForwardRequestParser(HttpLimits.DEFAULT.withMaxHeaderCount(3));
            assertRefused(get().header("Host", "h").headerCount(4), 431);
            parser = new ForwardRequestParser(HttpLimits.DEFAULT);
            assertRefused(get().headerCount(0xFFFF), 431);
        }

        @Test
        void theDefaultLimitIsAHundredHeaders() {
            ForwardRequestBuilder hundred = get();
            for (int i = 0; i < 100; i++) hundred.stringHeader("X-H" + i, Integer.toString(i));
            AjpRequestHead head = parsed(hundred);
            assertThat(head.headers().size()).isEqualTo(100);
            assertThat(head.headers().first("x-h99")).isEqualTo("99");
            assertRefused(hundred.stringHeader("X-H100", "100"), 431);
        }

        @Test
        void moreHeadersDeclaredThanSentIsCutShort() {
            HttpError error = parse(get().header("Host", "h").headerCount(2));
            assertThat(error).isNotNull();
            assertThat(error.status()).isEqualTo(400);
        }

        @Test
        void fewerHeadersDeclaredThanSentLeavesAHeaderWhereAttributesShouldBe() {
            assertRefused(get().header("Host", "h").stringHeader("X-A", "1").headerCount(1), 400);
        }
    }

    @Nested
    class BodyLength {
        @Test
        void aCodedContentLengthDeclaresTheBody() {
            AjpRequestHead head = parsed(get().method(4).codedHeader(ForwardRequestBuilder.SC_CONTENT_LENGTH, "42"));
            assertThat(head.contentLength()).isEqualTo(42);
            assertThat(head.chunked()).isFalse();
            assertThat(head.hasBody()).isTrue();
        }

        @ParameterizedTest
        @ValueSource(strings = {"Content-Length", "content-length", "CONTENT-LENGTH", "cOnTeNt-LeNgTh"})
        void aContentLengthSentAsAStringInAnyCaseDeclaresTheBody(String name) {
            AjpRequestHead head = parsed(get().method(4).stringHeader(name, "1234"));
            assertThat(head.contentLength()).isEqualTo(1234);
            assertThat(head.hasBody()).isTrue();
            assertThat(head.headers().name(0)).isEqualTo(name);
        }

        @Test
        void zeroIsNoBody() {
            AjpRequestHead head = parsed(get().method(4).header("Content-Length", "0"));
            assertThat(head.contentLength()).isZero();
            assertThat(head.hasBody()).isFalse();
        }

        @Test
        void withoutContentLengthOrTransferEncodingThereIsNoBody() {
            AjpRequestHead head = parsed(get().method(4).header("Content-Type", "text/plain"));
            assertThat(head.contentLength()).isEqualTo(-1);
            assertThat(head.chunked()).isFalse();
            assertThat(head.hasBody()).isFalse();
        }

        @Test
        void spacesAroundTheDigitsAreAllowed() {
            assertThat(parsed(get().header("Content-Length", " 7\t ")).contentLength()).isEqualTo(7);
        }

        @Test
        void leadingZerosAreDigitsToo() {
            assertThat(parsed(get().header("Content-Length", "007")).contentLength()).isEqualTo(7);
        }

        @Test
        void repeatedEqualValuesAreOne() {
            AjpRequestHead head = parsed(get()
                    .codedHeader(ForwardRequestBuilder.SC_CONTENT_LENGTH, "5")
                    .stringHeader("content-length", "5")
                    .stringHeader("Content-Length", "05"));
            assertThat(head.contentLength()).isEqualTo(5);
            assertThat(head.headers().all("Content-Length")).containsExactly("5", "5", "05");
        }

        @Test
        void conflictingValuesAreRefused() {
            assertRefused(get().header("Content-Length", "5").stringHeader("content-length", "6"), 400);
            assertRefused(get().header("Content-Length", "0").header("Content-Length", "1"), 400);
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " ", "abc", "-1", "+5", "0x10", "1 2", "5;", "1e3", "5.0", "\u00b2", "1234567890123456789"})
        void anythingButDigitsIsRefused(String value) {
            assertRefused(get().header("Content-Length", value), 400);
            assertRefused(get().stringHeader("content-length", value), 400);
        }

        @Test
        void anAbsentValueIsRefused() {
            assertRefused(get().codedHeader(ForwardRequestBuilder.SC_CONTENT_LENGTH, null), 400);
        }

        @Test
        void theBodyLimitItselfIsAcceptedAndOneMoreIsAnsweredWith413() {
            parser = new ForwardRequestParser(HttpLimits.DEFAULT.withMaxBodySize(10));
            assertThat(parsed(get().header("Content-Length", "10")).contentLength()).isEqualTo(10);
            assertRefused(get().header("Content-Length", "11"), 413);
            assertRefused(get().stringHeader("content-length", "11"), 413);
        }

        @Test
        void theDefaultLimitIsSixteenMebibytes() {
            assertThat(parsed(get().header("Content-Length", "16777216")).contentLength()).isEqualTo(16L * 1024 * 1024);
            assertRefused(get().header("Content-Length", "16777217"), 413);
            assertRefused(get().header("Content-Length", "999999999999999999"), 413);
        }

        @ParameterizedTest
        @ValueSource(strings = {"Transfer-Encoding", "transfer-encoding", "TRANSFER-ENCODING"})
        void transferEncodingMeansABodyOfUnknownLength(String name) {
            AjpRequestHead head = parsed(get().method(4).stringHeader(name, "chunked"));
            assertThat(head.chunked()).isTrue();
            assertThat(head.contentLength()).isEqualTo(-1);
            assertThat(head.hasBody()).isTrue();
            assertThat(head.request().framing()).isEqualTo(BodyFraming.FRAMED);
        }

        @Test
        void aContentLengthAlongsideTransferEncodingIsWhatTheFrontEndSends() {
            AjpRequestHead before = parsed(get().method(4).header("Content-Length", "9").stringHeader("Transfer-Encoding", "chunked"));
            assertThat(before.chunked()).isFalse();
            assertThat(before.contentLength()).isEqualTo(9);
            AjpRequestHead after = parsed(get().method(4).stringHeader("Transfer-Encoding", "chunked").header("Content-Length", "9"));
            assertThat(after.chunked()).isFalse();
            assertThat(after.contentLength()).isEqualTo(9);
            assertThat(after.hasBody()).isTrue();
        }

        @Test
        void theBodyFieldsStayInTheHeaders() {
            AjpRequestHead head = parsed(get().header("Content-Length", "3").stringHeader("Transfer-Encoding", "chunked"));
            assertThat(head.headers().first("Content-Length")).isEqualTo("3");
            assertThat(head.headers().first("transfer-encoding")).isEqualTo("chunked");
        }
    }

    @Nested
    class Attributes {
        @Test
        void withoutAttributesEverythingIsAbsent() {
            AjpRequestHead head = parsed(get());
            assertThat(head.query()).isNull();
            assertThat(head.remoteUser()).isNull();
            assertThat(head.authType()).isNull();
            assertThat(head.route()).isNull();
            assertThat(head.sslCertificate()).isNull();
            assertThat(head.sslCipher()).isNull();
            assertThat(head.sslSession()).isNull();
            assertThat(head.sslKeySize()).isEqualTo(-1);
            assertThat(head.secret()).isNull();
            assertThat(head.attributeCount()).isZero();
            assertThat(head.attribute("AJP_REMOTE_PORT")).isNull();
        }

        @Test
        void everyAttributeIsStored() {
            AjpRequestHead head = parsed(get()
                    .remoteUser("bob")
                    .authType("Digest")
                    .queryString("a=1")
                    .route("jvm2")
                    .sslCert("PEM")
                    .sslCipher("ECDHE-RSA-AES256-GCM-SHA384")
                    .sslSession("abcdef")
                    .sslKeySize(256)
                    .secret("shared")
                    .requestAttribute("AJP_SSL_PROTOCOL", "TLSv1.3"));
            assertThat(head.remoteUser()).isEqualTo("bob");
            assertThat(head.authType()).isEqualTo("Digest");
            assertThat(head.query()).isEqualTo("a=1");
            assertThat(head.target()).isEqualTo("/?a=1");
            assertThat(head.route()).isEqualTo("jvm2");
            assertThat(head.sslCertificate()).isEqualTo("PEM");
            assertThat(head.sslCipher()).isEqualTo("ECDHE-RSA-AES256-GCM-SHA384");
            assertThat(head.sslSession()).isEqualTo("abcdef");
            assertThat(head.sslKeySize()).isEqualTo(256);
            assertThat(head.secret()).isEqualTo("shared");
            assertThat(head.attribute("AJP_SSL_PROTOCOL")).isEqualTo("TLSv1.3");
        }

        @Test
        void theOrderOfAttributesDoesNotMatter() {
            AjpRequestHead head = parsed(get()
                    .secret("shared")
                    .requestAttribute("A", "1")
                    .sslKeySize(0xFFFF)
                    .queryString("q")
                    .remoteUser("bob")
                    .requestAttribute("B", "2"));
            assertThat(head.secret()).isEqualTo("shared");
            assertThat(head.sslKeySize()).isEqualTo(0xFFFF);
            assertThat(head.target()).isEqualTo("/?q");
            assertThat(head.remoteUser()).isEqualTo("bob");
            assertThat(head.attributeCount()).isEqualTo(2);
        }

        @Test
        void theKeySizeIsATwoByteInt() {
            assertThat(parsed(get().sslKeySize(0)).sslKeySize()).isZero();
            assertThat(parsed(get().sslKeySize(4096)).sslKeySize()).isEqualTo(4096);
        }

        @Test
        void contextAndServletPathAreReadAndIgnored() {
            AjpRequestHead head = parsed(get().uri("/app/x").context("/app").servletPath("/x").queryString("q"));
            assertThat(head.uri()).isEqualTo("/app/x");
            assertThat(head.target()).isEqualTo("/app/x?q");
            assertThat(head.attributeCount()).isZero();
        }

        @Test
        void absentAttributeValuesAreNull() {
            AjpRequestHead head = parsed(get().remoteUser(null).queryString(null).secret(null).route(null));
            assertThat(head.remoteUser()).isNull();
            assertThat(head.query()).isNull();
            assertThat(head.target()).isEqualTo("/");
            assertThat(head.secret()).isNull();
            assertThat(head.route()).isNull();
        }

        @Test
        void anEmptyQueryIsKept() {
            AjpRequestHead head = parsed(get().uri("/p").queryString(""));
            assertThat(head.query()).isEmpty();
            assertThat(head.target()).isEqualTo("/p?");
        }

        @Test
        void requestAttributesAreKeptInOrder() {
            AjpRequestHead head = parsed(get()
                    .requestAttribute("AJP_REMOTE_PORT", "54321")
                    .requestAttribute("AJP_LOCAL_ADDR", "10.0.0.1")
                    .requestAttribute("JK_LB_ACTIVATION", "ACT")
                    .requestAttribute("AJP_SSL_PROTOCOL", "TLSv1.2"));
            assertThat(head.attributeCount()).isEqualTo(4);
            List<String> names = new ArrayList<>();
            List<String> values = new ArrayList<>();
            for (int i = 0; i < head.attributeCount(); i++) {
                names.add(head.attributeName(i));
                values.add(head.attributeValue(i));
            }
            assertThat(names).containsExactly("AJP_REMOTE_PORT", "AJP_LOCAL_ADDR", "JK_LB_ACTIVATION", "AJP_SSL_PROTOCOL");
            assertThat(values).containsExactly("54321", "10.0.0.1", "ACT", "TLSv1.2");
            assertThat(head.attribute("JK_LB_ACTIVATION")).isEqualTo("ACT");
            assertThat(head.attribute("jk_lb_activation")).as("names are case-sensitive").isNull();
            assertThat(head.attribute("missing")).isNull();
        }

        @Test
        void aRepeatedRequestAttributeIsKeptTwiceAndTheFirstIsFound() {
            AjpRequestHead head = parsed(get().requestAttribute("X", "1").requestAttribute("X", "2"));
            assertThat(head.attributeCount()).isEqualTo(2);
            assertThat(head.attribute("X")).isEqualTo("1");
            assertThat(head.attributeValue(1)).isEqualTo("2");
        }

        @Test
        void aRequestAttributeWithoutValueIsEmpty() {
            AjpRequestHead head = parsed(get().requestAttribute("FLAG", null).requestAttribute("EMPTY", ""));
            assertThat(head.attribute("FLAG")).isEmpty();
            assertThat(head.attribute("EMPTY")).isEmpty();
        }

        @Test
        void aRequestAttributeWithoutNameIsRefused() {
            assertRefused(get().requestAttribute(null, "v"), 400);
        }

        @ParameterizedTest
        @ValueSource(ints = {0x00, 0x0E, 0x0F, 0x10, 0x7F, 0xFE})
        void anUnknownAttributeCodeIsRefused(int code) {
            assertRefused(get().queryString("q").rawAttribute(code, 0, 1, 'x', 0), 400);
        }
    }

    @Nested
    class CutShort {
        static List<ForwardRequestBuilder> richRequests() {
            return List.of(richRequest(), richStoredMethodRequest(),
                    get().storedMethod("MKREDIRECTREF").header("Host", "h").codedHeader(0xA00C, null).sslKeySize(1));
        }

        @Test
        void theRichRequestsParseWhole() {
            for (ForwardRequestBuilder request : richRequests()) assertThat(parse(request)).as(request.toString()).isNull();
        }

        @ParameterizedTest
        @MethodSource("richRequests")
        void everyPrefixIsRefusedWith400AndNothingIsThrown(ForwardRequestBuilder request) {
            byte[] payload = request.payload();
            for (int length = 1; length < payload.length; length++) {
                byte[] cut = Arrays.copyOf(payload, length);
                HttpError error = parser.parse(cut, 0, cut.length);
                assertThat(error).as("cut to %d of %d bytes", length, payload.length).isNotNull();
                assertThat(error.status()).as("cut to %d of %d bytes", length, payload.length).isEqualTo(400);
            }
        }

        @ParameterizedTest
        @MethodSource("richRequests")
        void everyPrefixIsRefusedEvenWhenTheRestOfThePacketIsStillInTheArray(ForwardRequestBuilder request) {
            byte[] payload = request.payload();
            for (int length = 1; length < payload.length; length++) {
                HttpError error = parser.parse(payload, 0, length);
                assertThat(error).as("cut to %d of %d bytes", length, payload.length).isNotNull();
                assertThat(error.status()).as("cut to %d of %d bytes", length, payload.length).isEqualTo(400);
            }
        }

        @Test
        void aPacketWithoutItsTerminatorIsCutShort() {
            byte[] payload = richRequest().payload();
            HttpError error = parser.parse(payload, 0, payload.length - 1);
            assertThat(error.status()).isEqualTo(400);
            assertThat(error.reason()).contains(CUT_SHORT);
        }

        @Test
        void aPacketCutInAStringIsCutShort() {
            byte[] payload = get().uri("/a-long-path").payload();
            HttpError error = parser.parse(payload, 0, 20);
            assertThat(error.status()).isEqualTo(400);
            assertThat(error.reason()).contains(CUT_SHORT);
        }

        @Test
        void aCutRightAfterTheCodedHeaderMarkerIsCutShort() {
            byte[] payload = get().codedHeader(ForwardRequestBuilder.SC_HOST, "h").payload();
            int marker = indexOf(payload, (byte) 0xA0);
            HttpError error = parser.parse(payload, 0, marker + 1);
            assertThat(error.status()).isEqualTo(400);
            assertThat(error.reason()).contains(CUT_SHORT);
        }

        @Test
        void aCutInsideTheStoredMethodIsCutShort() {
            byte[] payload = get().storedMethod("PATCH").payload();
            int code = payload.length - 1 - (2 + 5 + 1) - 1; // 0x0D, length, "PATCH", NUL, then 0xFF
            assertThat(payload[code]).isEqualTo((byte) ForwardRequestBuilder.A_STORED_METHOD);
            for (int length = code + 2; length < payload.length - 1; length++) {
                HttpError error = parser.parse(payload, 0, length);
                assertThat(error.status()).as("cut to %d", length).isEqualTo(400);
                assertThat(error.reason()).as("cut to %d", length).contains(CUT_SHORT);
            }
        }

        @Test
        void everyPrefixIsReportedAsCutShort() {
            Map<String, List<Integer>> wrong = new LinkedHashMap<>();
            for (ForwardRequestBuilder request : richRequests()) {
                byte[] payload = request.payload();
                for (int length = 1; length < payload.length; length++) {
                    HttpError error = parser.parse(payload, 0, length);
                    if (error == null || !error.reason().contains(CUT_SHORT)) {
                        wrong.computeIfAbsent(request + " (" + payload.length + " bytes)", k -> new ArrayList<>()).add(length);
                    }
                }
            }
            assertThat(wrong).as("cuts not reported as cut short").isEmpty();
        }

        private static int indexOf(byte[] bytes, byte b) {
            for (int i = 0; i < bytes.length; i++) {
                if (bytes[i] == b) return i;
            }
            throw new AssertionError("no byte " + b);
        }
    }

    @Nested
    class Reuse {
        @Test
        void aSecondPacketLeavesNothingOfTheFirst() {
            assertThat(parse(richRequest())).isNull();
            AjpRequestHead head = parsed(new ForwardRequestBuilder()
                    .method(ForwardRequestBuilder.HEAD)
                    .protocol("HTTP/1.0")
                    .uri("/second")
                    .remoteAddress("192.0.2.99")
                    .remoteHost(null)
                    .serverName(null)
                    .serverPort(8009)
                    .ssl(false)
                    .header("X-Only", "this"));
            assertThat(head.method()).isEqualTo("HEAD");
            assertThat(head.version()).isEqualTo(HttpVersion.HTTP_1_0);
            assertThat(head.uri()).isEqualTo("/second");
            assertThat(head.query()).isNull();
            assertThat(head.target()).isEqualTo("/second");
            assertThat(head.remoteAddress()).isEqualTo("192.0.2.99");
            assertThat(head.remoteHost()).isNull();
            assertThat(head.serverName()).isNull();
            assertThat(head.serverPort()).isEqualTo(8009);
            assertThat(head.ssl()).isFalse();
            assertThat(head.headers().size()).isEqualTo(1);
            assertThat(head.headers().toString()).isEqualTo("X-Only: this\n");
            assertThat(head.headers().contains("Host")).isFalse();
            assertThat(head.contentLength()).isEqualTo(-1);
            assertThat(head.chunked()).isFalse();
            assertThat(head.hasBody()).isFalse();
            assertThat(head.remoteUser()).isNull();
            assertThat(head.authType()).isNull();
            assertThat(head.route()).isNull();
            assertThat(head.sslCertificate()).isNull();
            assertThat(head.sslCipher()).isNull();
            assertThat(head.sslSession()).isNull();
            assertThat(head.sslKeySize()).isEqualTo(-1);
            assertThat(head.secret()).isNull();
            assertThat(head.attributeCount()).isZero();
            assertThat(head.attribute("AJP_REMOTE_PORT")).isNull();
        }

        @Test
        void aChunkedRequestLeavesNoChunkedFlagBehind() {
            assertThat(parsed(get().method(4).stringHeader("Transfer-Encoding", "chunked")).chunked()).isTrue();
            AjpRequestHead head = parsed(get());
            assertThat(head.chunked()).isFalse();
            assertThat(head.hasBody()).isFalse();
        }

        @Test
        void aStoredMethodIsNotCarriedOverToTheNextPacket() {
            assertThat(parsed(get().storedMethod("PATCH")).method()).isEqualTo("PATCH");
            assertRefused(get().method(ForwardRequestBuilder.STORED_METHOD), 400);
        }

        @Test
        void aRefusedPacketDoesNotSpoilTheNext() {
            assertRefused(richRequest().header("Content-Length", "6"), 400);
            assertRefused(richRequest().method(0), 400);
            byte[] payload = richRequest().payload();
            assertThat(parser.parse(payload, 0, payload.length / 2)).isNotNull();
            AjpRequestHead head = parsed(get().uri("/next").header("Host", "n"));
            assertThat(head.target()).isEqualTo("/next");
            assertThat(head.headers().toString()).isEqualTo("Host: n\n");
            assertThat(head.contentLength()).isEqualTo(-1);
            assertThat(head.secret()).isNull();
            assertThat(head.attributeCount()).isZero();
        }

        @Test
        void theSameHeadObjectIsReused() {
            AjpRequestHead first = parsed(get());
            AjpRequestHead second = parsed(get().uri("/b"));
            assertThat(second).isSameAs(first);
        }

        @Test
        void manyPacketsInARowEachParseAlone() {
            for (int i = 0; i < 50; i++) {
                ForwardRequestBuilder request = get().uri("/r" + i);
                for (int h = 0; h < i % 7; h++) request.stringHeader("X-" + h, i + "." + h);
                if (i % 3 == 0) request.queryString("i=" + i);
                if (i % 5 == 0) request.requestAttribute("N", Integer.toString(i));
                AjpRequestHead head = parsed(request);
                assertThat(head.uri()).isEqualTo("/r" + i);
                assertThat(head.headers().size()).isEqualTo(i % 7);
                assertThat(head.query()).isEqualTo(i % 3 == 0 ? "i=" + i : null);
                assertThat(head.attribute("N")).isEqualTo(i % 5 == 0 ? Integer.toString(i) : null);
            }
        }
    }
}
