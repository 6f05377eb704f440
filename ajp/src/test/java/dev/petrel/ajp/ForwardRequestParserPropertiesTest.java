package dev.petrel.ajp;

import static dev.petrel.ajp.ForwardRequestBuilder.HEADER_NAMES;
import static dev.petrel.ajp.ForwardRequestBuilder.METHOD_NAMES;
import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.HeaderFields;
import dev.petrel.http.HttpError;
import dev.petrel.http.HttpLimits;
import dev.petrel.http.HttpVersion;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Properties of {@link ForwardRequestParser} over generated forward requests: what is sent comes
 * back, on a parser reused from packet to packet; every cut packet is refused with a 400; random
 * and mutated bytes are answered, never thrown. The number of tries comes from
 * {@code jqwik.tries.default} (src/test/resources/junit-platform.properties).
 */
class ForwardRequestParserPropertiesTest {
    static final Set<Integer> ERROR_STATUSES = Set.of(400, 413, 431, 505);

    /** The request line: a method code (0xFF with a stored method), the version, URI and query. */
    record Line(int methodCode, String storedMethod, HttpVersion version, String uri, String query) {
        String method() {
            return methodCode == ForwardRequestBuilder.STORED_METHOD ? storedMethod : METHOD_NAMES.get(methodCode);
        }
    }

    /** What the front end knows of the connection. */
    record Connection(String remoteAddress, String remoteHost, String serverName, int serverPort, boolean ssl) {}

    /** A header with a code (0xA0xx) or, with code 0, a string name. */
    record Header(int code, String name, String value) {
        String expectedName() {
            return code != 0 ? HEADER_NAMES.get(code & 0xFF) : name;
        }
    }

    /** A Content-Length (-1 for none) and how its name is sent: coded, or a string in either case. */
    record BodyLength(long value, int form) {}

    record Auth(String remoteUser, String authType, String route, String secret) {}

    record Tls(String certificate, String cipher, String session, int keySize) {}

    record Attribute(String name, String value) {}

    record Request(Line line, Connection connection, List<Header> headers, BodyLength length, Auth auth, Tls tls,
            List<Attribute> attributes) {

        ForwardRequestBuilder builder() {
            ForwardRequestBuilder b = new ForwardRequestBuilder()
                    .method(line.methodCode)
                    .protocol(line.version.text())
                    .uri(line.uri)
                    .remoteAddress(connection.remoteAddress)
                    .remoteHost(connection.remoteHost)
                    .serverName(connection.serverName)
                    .serverPort(connection.serverPort)
                    .ssl(connection.ssl);
            for (Header h : headers) {
                if (h.code != 0) b.codedHeader(h.code, h.value);
                else b.stringHeader(h.name, h.value);
            }
            if (length.value >= 0) {
                String digits = Long.toString(length.value);
                switch (length.form) {
                    case 0 -> b.codedHeader(ForwardRequestBuilder.SC_CONTENT_LENGTH, digits);
                    case 1 -> b.stringHeader("Content-Length", digits);
                    default -> b.stringHeader("content-length", digits);
                }
            }
            if (auth.remoteUser != null) b.remoteUser(auth.remoteUser);
            if (auth.authType != null) b.authType(auth.authType);
            if (line.query != null) b.queryString(line.query);
            if (auth.route != null) b.route(auth.route);
            if (tls.certificate != null) b.sslCert(tls.certificate);
            if (tls.cipher != null) b.sslCipher(tls.cipher);
            if (tls.session != null) b.sslSession(tls.session);
            if (tls.keySize >= 0) b.sslKeySize(tls.keySize);
            if (auth.secret != null) b.secret(auth.secret);
            for (Attribute a : attributes) b.requestAttribute(a.name, a.value);
            if (line.methodCode == ForwardRequestBuilder.STORED_METHOD) {
                b.attribute(ForwardRequestBuilder.A_STORED_METHOD, line.storedMethod);
            }
            return b;
        }

        void check(AjpRequestHead head) {
            assertThat(head.method()).isEqualTo(line.method());
            assertThat(head.version()).isEqualTo(line.version);
            assertThat(head.uri()).isEqualTo(line.uri);
            assertThat(head.query()).isEqualTo(line.query);
            assertThat(head.target()).isEqualTo(line.query == null ? line.uri : line.uri + "?" + line.query);
            assertThat(head.remoteAddress()).isEqualTo(connection.remoteAddress);
            assertThat(head.remoteHost()).isEqualTo(connection.remoteHost);
            assertThat(head.serverName()).isEqualTo(connection.serverName);
            assertThat(head.serverPort()).isEqualTo(connection.serverPort);
            assertThat(head.ssl()).isEqualTo(connection.ssl);

            HeaderFields fields = head.headers();
            assertThat(fields.size()).isEqualTo(headers.size() + (length.value >= 0 ? 1 : 0));
            for (int i = 0; i < headers.size(); i++) {
                assertThat(fields.name(i)).isEqualTo(headers.get(i).expectedName());
                assertThat(fields.value(i)).isEqualTo(headers.get(i).value == null ? "" : headers.get(i).value);
            }
            assertThat(head.contentLength()).isEqualTo(length.value);
            assertThat(head.chunked()).isFalse();
            assertThat(head.hasBody()).isEqualTo(length.value > 0);

            assertThat(head.remoteUser()).isEqualTo(auth.remoteUser);
            assertThat(head.authType()).isEqualTo(auth.authType);
            assertThat(head.route()).isEqualTo(auth.route);
            assertThat(head.secret()).isEqualTo(auth.secret);
            assertThat(head.sslCertificate()).isEqualTo(tls.certificate);
            assertThat(head.sslCipher()).isEqualTo(tls.cipher);
            assertThat(head.sslSession()).isEqualTo(tls.session);
            assertThat(head.sslKeySize()).isEqualTo(tls.keySize);

            assertThat(head.attributeCount()).isEqualTo(attributes.size());
            for (int i = 0; i < attributes.size(); i++) {
                assertThat(head.attributeName(i)).isEqualTo(attributes.get(i).name);
                assertThat(head.attributeValue(i)).isEqualTo(attributes.get(i).value == null ? "" : attributes.get(i).value);
            }
        }
    }

    private static final String TOKEN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~";

    static Arbitrary<String> token(int maxLength) {
        return Arbitraries.strings().withChars(TOKEN_CHARS.toCharArray()).ofMinLength(1).ofMaxLength(maxLength);
    }

    /** Header values and attribute strings: printable ASCII, tab and obs-text, as ISO-8859-1 carries them. */
    static Arbitrary<String> text(int maxLength) {
        return Arbitraries.strings().withCharRange(' ', '~').withCharRange('\u0080', '\u00ff').withChars('\t')
                .ofMaxLength(maxLength);
    }

    static Arbitrary<String> absentOrText(int maxLength) {
        return text(maxLength).injectNull(0.3);
    }

    static Arbitrary<Line> lines() {
        Arbitrary<Integer> codes = Arbitraries.integers().between(1, 28).map(i -> i == 28 ? ForwardRequestBuilder.STORED_METHOD : i);
        Arbitrary<String> uris = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just("*")),
                Tuple.of(12, Arbitraries.strings().withChars("abcXYZ019-._~%/;=:@!$&'()*+,".toCharArray()).ofMaxLength(30)
                        .map(s -> "/" + s)));
        Arbitrary<String> queries = Arbitraries.strings().withCharRange('!', '~').ofMaxLength(30).injectNull(0.4);
        return Combinators.combine(codes, token(12), Arbitraries.of(HttpVersion.HTTP_1_0, HttpVersion.HTTP_1_1) /* what AJP carries */, uris, queries).as(Line::new);
    }

    static Arbitrary<Connection> connections() {
        return Combinators.combine(
                        Arbitraries.of("192.0.2.1", "2001:db8::1", "127.0.0.1").injectNull(0.1),
                        Arbitraries.of("client.example.net", "192.0.2.1", "").injectNull(0.3),
                        Arbitraries.of("www.example.com", "localhost", "").injectNull(0.1),
                        Arbitraries.integers().between(0, 0xFFFF),
                        Arbitraries.of(true, false))
                .as(Connection::new);
    }

    static Arbitrary<Header> headers() {
        Arbitrary<Integer> codes = Arbitraries.integers().between(0xA001, 0xA00E)
                .filter(c -> c != ForwardRequestBuilder.SC_CONTENT_LENGTH);
        Arbitrary<Header> coded = Combinators.combine(codes, absentOrText(40)).as((c, v) -> new Header(c, null, v));
        Arbitrary<String> names = Arbitraries.strings().withChars(TOKEN_CHARS.toCharArray()).ofMinLength(1).ofMaxLength(20)
                .map(s -> "X-" + s);
        Arbitrary<Header> named = Combinators.combine(names, absentOrText(40)).as((n, v) -> new Header(0, n, v));
        return Arbitraries.oneOf(coded, named);
    }

    static Arbitrary<BodyLength> bodyLengths() {
        Arbitrary<Long> values = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(-1L)),
                Tuple.of(1, Arbitraries.just(0L)),
                Tuple.of(3, Arbitraries.longs().between(1, HttpLimits.DEFAULT.maxBodySize())));
        return Combinators.combine(values, Arbitraries.integers().between(0, 2)).as(BodyLength::new);
    }

    static Arbitrary<Auth> auths() {
        return Combinators.combine(absentOrText(10), Arbitraries.of("Basic", "Digest", "NEGOTIATE").injectNull(0.5),
                        token(8).injectNull(0.5), text(16).injectNull(0.5))
                .as(Auth::new);
    }

    static Arbitrary<Tls> tlss() {
        return Combinators.combine(
                        Arbitraries.just("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n").injectNull(0.5),
                        Arbitraries.of("TLS_AES_128_GCM_SHA256", "ECDHE-RSA-AES256-GCM-SHA384").injectNull(0.5),
                        Arbitraries.strings().withChars("0123456789abcdef".toCharArray()).ofLength(64).injectNull(0.5),
                        Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just(-1)), Tuple.of(1, Arbitraries.of(128, 256, 0, 0xFFFF))))
                .as(Tls::new);
    }

    static Arbitrary<Attribute> attributes() {
        return Combinators.combine(
                        Arbitraries.of("AJP_REMOTE_PORT", "AJP_LOCAL_ADDR", "JK_LB_ACTIVATION", "AJP_SSL_PROTOCOL", "custom"),
                        absentOrText(12))
                .as(Attribute::new);
    }

    @Provide
    Arbitrary<Request> requests() {
        return Combinators.combine(lines(), connections(), headers().list().ofMaxSize(12), bodyLengths(), auths(), tlss(),
                        attributes().list().ofMaxSize(4))
                .as(Request::new);
    }

    @Provide
    Arbitrary<List<Request>> requestSequences() {
        return requests().list().ofMinSize(1).ofMaxSize(4);
    }

    @Property
    void whatIsSentComesBackOnAParserReusedFromPacketToPacket(@ForAll("requestSequences") List<Request> requests) {
        ForwardRequestParser parser = new ForwardRequestParser(HttpLimits.DEFAULT);
        for (Request request : requests) {
            byte[] payload = request.builder().payload();
            assertThat(parser.parse(payload, 0, payload.length)).isNull();
            request.check(parser.head());
        }
    }

    @Property
    void theSamePacketParsesTheSameAnywhereInABuffer(@ForAll("requests") Request request,
            @ForAll @IntRange(max = 100) int before, @ForAll @IntRange(max = 100) int after) {
        byte[] payload = request.builder().payload();
        byte[] buffer = new byte[before + payload.length + after];
        Arrays.fill(buffer, (byte) 0xA0);
        System.arraycopy(payload, 0, buffer, before, payload.length);
        ForwardRequestParser parser = new ForwardRequestParser(HttpLimits.DEFAULT);
        assertThat(parser.parse(buffer, before, payload.length)).isNull();
        request.check(parser.head());
    }

    @Property
    void everyCutPacketIsRefusedWith400(@ForAll("requests") Request request, @ForAll @IntRange(min = 1, max = 1 << 20) int at) {
        byte[] payload = request.builder().payload();
        int length = 1 + at % (payload.length - 1);
        ForwardRequestParser parser = new ForwardRequestParser(HttpLimits.DEFAULT);
        HttpError whole = parser.parse(payload, 0, length);
        assertThat(whole).as("cut to %d of %d", length, payload.length).isNotNull();
        assertThat(whole.status()).isEqualTo(400);
        HttpError copied = parser.parse(Arrays.copyOf(payload, length), 0, length);
        assertThat(copied).isEqualTo(whole);
    }

    /** Bytes that mean something somewhere in a forward request, and any byte. */
    static Arbitrary<Byte> meaningfulBytes() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.of(List.of(0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x08, 0x0A, 0x0B, 0x0C, 0x0D,
                        0x0E, 0xA0, 0xFF, 0xFE, (int) '/', (int) 'H', (int) '*', (int) ' ', (int) '0', (int) '9'))
                        .map(Integer::byteValue)),
                Tuple.of(1, Arbitraries.bytes()));
    }

    @Property
    void randomBytesAreAnsweredNeverThrown(@ForAll("randomPayloads") byte[] payload) {
        assertAnswered(HttpLimits.DEFAULT.withMaxHeaderCount(20).withMaxBodySize(1000), payload);
    }

    @Provide
    Arbitrary<byte[]> randomPayloads() {
        return meaningfulBytes().list().ofMaxSize(300).map(list -> {
            byte[] payload = new byte[list.size() + 1];
            payload[0] = AjpPackets.FORWARD_REQUEST;
            for (int i = 0; i < list.size(); i++) payload[i + 1] = list.get(i);
            return payload;
        });
    }

    /** A change to a packet: overwrite, insert or delete a byte at a position. */
    record Mutation(int kind, int position, byte value) {}

    @Property
    void mutatedPacketsAreAnsweredNeverThrown(@ForAll("requests") Request request,
            @ForAll @Size(min = 1, max = 6) List<@From("mutations") Mutation> mutations) {
        List<Byte> bytes = new ArrayList<>();
        for (byte b : request.builder().payload()) bytes.add(b);
        for (Mutation m : mutations) {
            int at = 1 + m.position % bytes.size(); // the type byte stays: the caller dispatches on it
            switch (m.kind) {
                case 0 -> {
                    if (at < bytes.size()) bytes.set(at, m.value);
                }
                case 1 -> bytes.add(Math.min(at, bytes.size()), m.value);
                default -> {
                    if (at < bytes.size()) bytes.remove(at);
                }
            }
        }
        byte[] payload = new byte[bytes.size()];
        for (int i = 0; i < payload.length; i++) payload[i] = bytes.get(i);
        assertAnswered(HttpLimits.DEFAULT, payload);
    }

    @Provide
    Arbitrary<Mutation> mutations() {
        return Combinators.combine(Arbitraries.integers().between(0, 2), Arbitraries.integers().between(0, 1 << 16),
                        meaningfulBytes())
                .as(Mutation::new);
    }

    private static void assertAnswered(HttpLimits limits, byte[] payload) {
        ForwardRequestParser parser = new ForwardRequestParser(limits);
        checkAnswer(parser.parse(payload, 0, payload.length), parser.head(), limits);
    }

    /**
     * What every answer keeps, shared with {@link ForwardRequestParserJazzerTest}: a refusal has one
     * of {@link #ERROR_STATUSES}; an accepted head has a method, a version, a URI that is {@code *}
     * or a path without spaces or controls, and stays within {@code limits}.
     */
    static void checkAnswer(HttpError error, AjpRequestHead head, HttpLimits limits) {
        if (error != null) {
            assertThat(ERROR_STATUSES).contains(error.status());
            return;
        }
        assertThat(head.method()).isNotEmpty();
        assertThat(head.version()).isNotNull();
        assertThat(head.uri()).matches("\\*|/[^\\x00-\\x20\\x7f]*");
        assertThat(head.contentLength()).isBetween(-1L, limits.maxBodySize());
        assertThat(head.headers().size()).isLessThanOrEqualTo(limits.maxHeaderCount());
    }
}
