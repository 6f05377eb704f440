package dev.petrel.server.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.ParseStatus;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The PROXY protocol header, v1 and v2, parsed whole and split at every byte, and what is refused. */
class ProxyHeaderParserTest {
    private static final byte[] SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
    private static final String CLIENT_BYTES = "GET / HTTP/1.1\r\n";

    private record Outcome(ParseStatus status, ProxyHeader header, String error, String rest) {}

    /** Parses {@code bytes} fed in pieces of {@code piece} bytes, as a connection's reads would. */
    private static Outcome parse(byte[] bytes, int piece) {
        ProxyHeaderParser parser = new ProxyHeaderParser();
        ParseStatus status = ParseStatus.NEED_MORE;
        ByteBuffer rest = ByteBuffer.allocate(0);
        for (int at = 0; at < bytes.length && status == ParseStatus.NEED_MORE; at += piece) {
            ByteBuffer in = ByteBuffer.wrap(bytes, at, Math.min(piece, bytes.length - at)).slice();
            status = parser.parse(in);
            if (status != ParseStatus.NEED_MORE) {
                ByteBuffer after = ByteBuffer.allocate(in.remaining() + bytes.length - Math.min(bytes.length, at + piece));
                after.put(in).put(bytes, Math.min(bytes.length, at + piece), bytes.length - Math.min(bytes.length, at + piece)).flip();
                rest = after;
            }
        }
        return new Outcome(status, parser.header(), parser.error() == null ? null : parser.error().reason(),
                StandardCharsets.ISO_8859_1.decode(rest).toString());
    }

    /** The outcome, which must be the same however the bytes are split. */
    private static Outcome parseEveryWay(byte[] bytes) {
        Outcome whole = parse(bytes, bytes.length);
        for (int piece = 1; piece < Math.min(bytes.length, 40); piece++) assertThat(parse(bytes, piece)).isEqualTo(whole);
        return whole;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] v2(int versionCommand, int familyTransport, byte[] addresses, byte[]... tlvs) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(SIGNATURE);
        out.write(versionCommand);
        out.write(familyTransport);
        int length = addresses.length;
        for (byte[] tlv : tlvs) length += tlv.length;
        out.write(length >>> 8);
        out.write(length & 0xFF);
        out.writeBytes(addresses);
        for (byte[] tlv : tlvs) out.writeBytes(tlv);
        out.writeBytes(ascii(CLIENT_BYTES));
        return out.toByteArray();
    }

    private static byte[] tlv(int type, byte[] value) {
        byte[] tlv = new byte[3 + value.length];
        tlv[0] = (byte) type;
        tlv[1] = (byte) (value.length >>> 8);
        tlv[2] = (byte) value.length;
        System.arraycopy(value, 0, tlv, 3, value.length);
        return tlv;
    }

    @Test
    void v1Tcp4GivesBothAddressesAndLeavesTheClientBytes() {
        Outcome outcome = parseEveryWay(ascii("PROXY TCP4 192.0.2.10 198.51.100.1 56324 443\r\n" + CLIENT_BYTES));
        assertThat(outcome.status()).isEqualTo(ParseStatus.COMPLETE);
        assertThat(outcome.header().source()).isEqualTo(new InetSocketAddress("192.0.2.10", 56324));
        assertThat(outcome.header().destination()).isEqualTo(new InetSocketAddress("198.51.100.1", 443));
        assertThat(outcome.header().tls()).isFalse();
        assertThat(outcome.rest()).isEqualTo(CLIENT_BYTES);
    }

    @Test
    void v1Tcp6AndUnknown() {
        Outcome v6 = parseEveryWay(ascii("PROXY TCP6 2001:db8::1 2001:db8::2 4711 80\r\n" + CLIENT_BYTES));
        assertThat(v6.header().source()).isEqualTo(new InetSocketAddress("2001:db8::1", 4711));
        Outcome unknown = parseEveryWay(ascii("PROXY UNKNOWN ffff:f...f:ffff ffff:f...f:ffff 65535 65535\r\n" + CLIENT_BYTES));
        assertThat(unknown.status()).isEqualTo(ParseStatus.COMPLETE);
        assertThat(unknown.header()).isEqualTo(ProxyHeader.LOCAL);
        assertThat(unknown.rest()).isEqualTo(CLIENT_BYTES);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "PROXY TCP4 192.0.2.10 198.51.100.1 56324\r\n",        // a field missing
        "PROXY TCP4 192.0.2.10  198.51.100.1 56324 443\r\n",   // two spaces
        "PROXY TCP4 2001:db8::1 198.51.100.1 56324 443\r\n",   // the wrong family
        "PROXY TCP6 192.0.2.10 2001:db8::2 56324 443\r\n",
        "PROXY TCP4 192.0.2.256 198.51.100.1 56324 443\r\n",   // not an address
        "PROXY TCP4 192.0.2.1 198.51.100.1 65536 443\r\n",     // not a port
        "PROXY TCP4 192.0.2.1 198.51.100.1 056324 443\r\n",    // a leading zero
        "PROXY TCP4 example.com 198.51.100.1 1 2\r\n",          // never a name
        "PROXY UDP4 192.0.2.10 198.51.100.1 56324 443\r\n",
        "PROXY TCP4 192.0.2.10 198.51.100.1 56324 443\n",      // no CR
        "GET / HTTP/1.1\r\n",                                  // no header at all
        "proxy TCP4 192.0.2.10 198.51.100.1 56324 443\r\n"})
    void v1IsStrict(String header) {
        Outcome outcome = parseEveryWay(ascii(header));
        assertThat(outcome.status()).isEqualTo(ParseStatus.ERROR);
        assertThat(outcome.error()).isNotBlank().doesNotContain("192.0.2");
    }

    @Test
    void v1IsBoundedAt107Bytes() {
        Outcome outcome = parseEveryWay(ascii("PROXY UNKNOWN " + "x".repeat(200) + "\r\n"));
        assertThat(outcome.status()).isEqualTo(ParseStatus.ERROR);
        assertThat(outcome.error()).contains("107");
    }

    @Test
    void v2Inet4WithTheClientsTls() {
        byte[] addresses = {(byte) 192, 0, 2, 10, (byte) 198, 51, 100, 1, (byte) 0xDC, 0x04, 0x01, (byte) 0xBB};
        ByteArrayOutputStream ssl = new ByteArrayOutputStream();
        ssl.write(0x01); // PP2_CLIENT_SSL
        ssl.writeBytes(new byte[4]); // verify: 0, the certificate (if any) verified
        ssl.writeBytes(tlv(0x21, ascii("TLSv1.3")));
        ssl.writeBytes(tlv(0x23, ascii("TLS_AES_128_GCM_SHA256")));
        Outcome outcome = parseEveryWay(v2(0x21, 0x11, addresses, tlv(0x20, ssl.toByteArray()), tlv(0x04, ascii("ignored"))));
        assertThat(outcome.status()).isEqualTo(ParseStatus.COMPLETE);
        assertThat(outcome.header().source()).isEqualTo(new InetSocketAddress("192.0.2.10", 56324));
        assertThat(outcome.header().destination()).isEqualTo(new InetSocketAddress("198.51.100.1", 443));
        assertThat(outcome.header().tls()).isTrue();
        assertThat(outcome.header().tlsVersion()).isEqualTo("TLSv1.3");
        assertThat(outcome.header().tlsCipher()).isEqualTo("TLS_AES_128_GCM_SHA256");
        assertThat(outcome.rest()).isEqualTo(CLIENT_BYTES);
    }

    @Test
    void v2Inet6AndLocal() {
        byte[] addresses = new byte[36];
        addresses[0] = 0x20;
        addresses[1] = 0x01;
        addresses[15] = 1;
        addresses[16] = 0x20;
        addresses[17] = 0x01;
        addresses[31] = 2;
        addresses[32] = 0x12;
        addresses[33] = 0x67; // 4711
        addresses[35] = 80;
        Outcome v6 = parseEveryWay(v2(0x21, 0x21, addresses));
        assertThat(v6.header().source()).isEqualTo(new InetSocketAddress("2001::1", 4711));
        assertThat(v6.header().destination()).isEqualTo(new InetSocketAddress("2001::2", 80));

        Outcome local = parseEveryWay(v2(0x20, 0x00, new byte[0]));
        assertThat(local.status()).isEqualTo(ParseStatus.COMPLETE);
        assertThat(local.header()).isEqualTo(ProxyHeader.LOCAL);
        assertThat(local.rest()).isEqualTo(CLIENT_BYTES);
    }

    @Test
    void v2IsStrict() {
        byte[] four = new byte[12];
        for (byte[] bad : List.of(
                v2(0x11, 0x11, four),                   // version 1 in a v2 header
                v2(0x22, 0x11, four),                   // an unknown command
                v2(0x21, 0x12, four),                   // UDP
                v2(0x21, 0x41, four),                   // an unknown family
                v2(0x21, 0x21, four),                   // too short for IPv6
                v2(0x21, 0x11, four, new byte[] {0x20, 0x00}))) { // a truncated TLV
            Outcome outcome = parseEveryWay(bad);
            assertThat(outcome.status()).as(java.util.HexFormat.of().formatHex(bad)).isEqualTo(ParseStatus.ERROR);
        }
        byte[] huge = v2(0x21, 0x11, new byte[ProxyHeaderParser.MAX_V2_LENGTH]);
        assertThat(parse(huge, huge.length).status()).isEqualTo(ParseStatus.ERROR);
    }
}
