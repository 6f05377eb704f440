package dev.petrel.http2;

import static dev.petrel.http2.HpackTesting.decode;
import static dev.petrel.http2.HpackTesting.decodeDirect;
import static dev.petrel.http2.HpackTesting.entries;
import static dev.petrel.http2.HpackTesting.field;
import static dev.petrel.http2.HpackTesting.hex;
import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.ByteSink;
import dev.petrel.http2.HpackTesting.Decoded;
import dev.petrel.http2.HpackTesting.Field;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The examples of RFC 7541 Appendix C.2 to C.6, decoded (from a heap and from a direct buffer)
 * and encoded. The encoder makes the same choices as the examples (incremental indexing with the
 * lowest indexed name, Huffman when shorter), so its bytes must be the RFC's, with two exceptions:
 * C.2.2 uses a representation the encoder never picks, and is only round-tripped; and in C.6.2
 * the RFC Huffman-codes "307", which takes 3 bytes either way, where the encoder sends it as it
 * is ({@link #ENCODER_C6_2}), sparing the peer the decoding.
 */
class HpackAppendixCTest {
    private static final int NO_LIMIT = Integer.MAX_VALUE;

    /** One block of an example: the list, its encoding, and the dynamic table after it (newest first). */
    record Block(List<Field> fields, String hex, List<Field> table, int tableSize) {}

    // C.3 and C.4: requests on one connection, the table at its initial 4096 bytes.

    private static final List<Field> REQUEST_1 = List.of(
            field(":method", "GET"), field(":scheme", "http"), field(":path", "/"), field(":authority", "www.example.com"));
    private static final List<Field> REQUEST_2 = List.of(
            field(":method", "GET"), field(":scheme", "http"), field(":path", "/"), field(":authority", "www.example.com"),
            field("cache-control", "no-cache"));
    private static final List<Field> REQUEST_3 = List.of(
            field(":method", "GET"), field(":scheme", "https"), field(":path", "/index.html"),
            field(":authority", "www.example.com"), field("custom-key", "custom-value"));

    private static final List<Field> REQUEST_TABLE_1 = List.of(field(":authority", "www.example.com"));
    private static final List<Field> REQUEST_TABLE_2 = List.of(field("cache-control", "no-cache"), field(":authority", "www.example.com"));
    private static final List<Field> REQUEST_TABLE_3 = List.of(
            field("custom-key", "custom-value"), field("cache-control", "no-cache"), field(":authority", "www.example.com"));

    private static final List<Block> C3 = List.of(
            new Block(REQUEST_1, "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d", REQUEST_TABLE_1, 57),
            new Block(REQUEST_2, "8286 84be 5808 6e6f 2d63 6163 6865", REQUEST_TABLE_2, 110),
            new Block(REQUEST_3, "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65", REQUEST_TABLE_3, 164));

    private static final List<Block> C4 = List.of(
            new Block(REQUEST_1, "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff", REQUEST_TABLE_1, 57),
            new Block(REQUEST_2, "8286 84be 5886 a8eb 1064 9cbf", REQUEST_TABLE_2, 110),
            new Block(REQUEST_3, "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf", REQUEST_TABLE_3, 164));

    // C.5 and C.6: responses on one connection, SETTINGS_HEADER_TABLE_SIZE 256, so entries are evicted.

    private static final String DATE_21 = "Mon, 21 Oct 2013 20:13:21 GMT";
    private static final String DATE_22 = "Mon, 21 Oct 2013 20:13:22 GMT";
    private static final String LOCATION = "https://www.example.com";
    private static final String COOKIE = "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1";

    private static final List<Field> RESPONSE_1 = List.of(
            field(":status", "302"), field("cache-control", "private"), field("date", DATE_21), field("location", LOCATION));
    private static final List<Field> RESPONSE_2 = List.of(
            field(":status", "307"), field("cache-control", "private"), field("date", DATE_21), field("location", LOCATION));
    private static final List<Field> RESPONSE_3 = List.of(
            field(":status", "200"), field("cache-control", "private"), field("date", DATE_22), field("location", LOCATION),
            field("content-encoding", "gzip"), field("set-cookie", COOKIE));

    private static final List<Field> RESPONSE_TABLE_1 = List.of(
            field("location", LOCATION), field("date", DATE_21), field("cache-control", "private"), field(":status", "302"));
    private static final List<Field> RESPONSE_TABLE_2 = List.of(
            field(":status", "307"), field("location", LOCATION), field("date", DATE_21), field("cache-control", "private"));
    private static final List<Field> RESPONSE_TABLE_3 = List.of(
            field("set-cookie", COOKIE), field("content-encoding", "gzip"), field("date", DATE_22));

    private static final List<Block> C5 = List.of(
            new Block(RESPONSE_1, """
                    4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133
                    2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70
                    6c65 2e63 6f6d""", RESPONSE_TABLE_1, 222),
            new Block(RESPONSE_2, "4803 3330 37c1 c0bf", RESPONSE_TABLE_2, 222),
            new Block(RESPONSE_3, """
                    88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d
                    54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049
                    5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e
                    3d31""", RESPONSE_TABLE_3, 215));

    private static final List<Block> C6 = List.of(
            new Block(RESPONSE_1, """
                    4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6
                    2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3""", RESPONSE_TABLE_1, 222),
            new Block(RESPONSE_2, "4883 640e ffc1 c0bf", RESPONSE_TABLE_2, 222),
            new Block(RESPONSE_3, """
                    88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab
                    77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f
                    9587 3160 65c0 03ed 4ee5 b106 3d50 07""", RESPONSE_TABLE_3, 215));

    /** C.6.2 as the encoder writes it: "307" not Huffman-coded (3 bytes either way). */
    static final String ENCODER_C6_2 = "4803 3330 37c1 c0bf";

    @Test
    void c3RequestsWithoutHuffmanDecode() throws HpackException {
        decodesInSequence(C3, () -> new HpackDecoder(4096, NO_LIMIT));
    }

    @Test
    void c3RequestsWithoutHuffmanEncodeToTheSameBytes() {
        encodesInSequence(C3, new HpackEncoder(4096).withoutHuffman());
    }

    @Test
    void c4RequestsWithHuffmanDecode() throws HpackException {
        decodesInSequence(C4, () -> new HpackDecoder(4096, NO_LIMIT));
    }

    @Test
    void c4RequestsWithHuffmanEncodeToTheSameBytes() {
        encodesInSequence(C4, new HpackEncoder(4096));
    }

    @Test
    void c5ResponsesWithoutHuffmanDecodeWithEviction() throws HpackException {
        decodesInSequence(C5, () -> new HpackDecoder(256, NO_LIMIT, 256));
    }

    @Test
    void c5ResponsesWithoutHuffmanEncodeToTheSameBytes() {
        encodesInSequence(C5, new HpackEncoder(256, 256).withoutHuffman());
    }

    @Test
    void c6ResponsesWithHuffmanDecodeWithEviction() throws HpackException {
        decodesInSequence(C6, () -> new HpackDecoder(256, NO_LIMIT, 256));
    }

    @Test
    void c6ResponsesWithHuffmanEncodeToTheSameBytes() {
        encodesInSequence(asTheEncoderWritesIt(C6), new HpackEncoder(256, 256));
    }

    @Test
    void c6WithBothSidesStartingAt4096BeginsWithTheSizeUpdate() throws HpackException {
        // The RFC's responses assume both sides already at 256. An encoder told so by SETTINGS
        // starts its first block with the size update, and a decoder at the initial 4096 follows it.
        HpackEncoder encoder = new HpackEncoder(4096);
        encoder.peerTableSizeSetting(256);
        HpackDecoder decoder = new HpackDecoder(4096, NO_LIMIT);
        List<Block> blocks = asTheEncoderWritesIt(C6);
        for (int i = 0; i < blocks.size(); i++) {
            Block block = blocks.get(i);
            String expected = (i == 0 ? "3fe101" : "") + hex(hex(block.hex())); // 256 with a 5-bit prefix: 31 + 225
            String encoded = encode(encoder, block.fields());
            assertThat(encoded).isEqualTo(expected);
            assertThat(decode(decoder, hex(encoded)).fields()).containsExactlyElementsOf(block.fields());
            assertThat(entries(decoder.table())).containsExactlyElementsOf(block.table());
        }
    }

    @Test
    void c2_1LiteralWithIndexing() throws HpackException {
        HpackDecoder decoder = new HpackDecoder(4096, NO_LIMIT);
        byte[] block = hex("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572");
        assertThat(decode(decoder, block).fields()).containsExactly(field("custom-key", "custom-header"));
        assertThat(entries(decoder.table())).containsExactly(field("custom-key", "custom-header"));
        assertThat(decoder.dynamicTableSize()).isEqualTo(55);

        HpackEncoder encoder = new HpackEncoder(4096).withoutHuffman();
        assertThat(encode(encoder, List.of(field("custom-key", "custom-header")))).isEqualTo(hex(block));
        assertThat(encoder.dynamicTableSize()).isEqualTo(55);
    }

    @Test
    void c2_2LiteralWithoutIndexing() throws HpackException {
        HpackDecoder decoder = new HpackDecoder(4096, NO_LIMIT);
        byte[] block = hex("040c 2f73 616d 706c 652f 7061 7468");
        assertThat(decode(decoder, block).fields()).containsExactly(field(":path", "/sample/path"));
        assertThat(decoder.dynamicTableSize()).isZero();

        // The encoder would index this field; what it sends must still read back the same.
        HpackEncoder encoder = new HpackEncoder(4096);
        HpackDecoder other = new HpackDecoder(4096, NO_LIMIT);
        assertThat(decode(other, hex(encode(encoder, List.of(field(":path", "/sample/path"))))).fields())
                .containsExactly(field(":path", "/sample/path"));
    }

    @Test
    void c2_3LiteralNeverIndexed() throws HpackException {
        HpackDecoder decoder = new HpackDecoder(4096, NO_LIMIT);
        byte[] block = hex("1008 7061 7373 776f 7264 0673 6563 7265 74");
        assertThat(decode(decoder, block).fields()).containsExactly(field("password", "secret"));
        assertThat(decoder.dynamicTableSize()).isZero();

        HpackEncoder encoder = new HpackEncoder(4096).withoutHuffman();
        ByteSink out = new ByteSink(64);
        encoder.beginBlock(out);
        encoder.field(out, HpackTesting.latin1("password"), HpackTesting.latin1("secret"), true);
        assertThat(out.toByteArray()).isEqualTo(block);
        assertThat(encoder.dynamicTableSize()).isZero();
    }

    @Test
    void c2_4IndexedField() throws HpackException {
        HpackDecoder decoder = new HpackDecoder(4096, NO_LIMIT);
        assertThat(decode(decoder, hex("82")).fields()).containsExactly(field(":method", "GET"));
        assertThat(decoder.dynamicTableSize()).isZero();
        assertThat(encode(new HpackEncoder(4096), List.of(field(":method", "GET")))).isEqualTo("82");
    }

    private static List<Block> asTheEncoderWritesIt(List<Block> c6) {
        Block second = c6.get(1);
        return List.of(c6.get(0), new Block(second.fields(), ENCODER_C6_2, second.table(), second.tableSize()), c6.get(2));
    }

    private static void decodesInSequence(List<Block> blocks, java.util.function.Supplier<HpackDecoder> decoders) throws HpackException {
        HpackDecoder heap = decoders.get();
        HpackDecoder direct = decoders.get();
        for (Block block : blocks) {
            Decoded decoded = decode(heap, hex(block.hex()));
            assertThat(decoded.result()).isEqualTo(HpackDecoder.Result.OK);
            assertThat(decoded.fields()).containsExactlyElementsOf(block.fields());
            assertThat(entries(heap.table())).containsExactlyElementsOf(block.table());
            assertThat(heap.dynamicTableSize()).isEqualTo(block.tableSize());

            assertThat(decodeDirect(direct, hex(block.hex())).fields()).containsExactlyElementsOf(block.fields());
            assertThat(entries(direct.table())).containsExactlyElementsOf(block.table());
        }
    }

    private static void encodesInSequence(List<Block> blocks, HpackEncoder encoder) {
        for (Block block : blocks) {
            assertThat(encode(encoder, block.fields())).isEqualTo(hex(hex(block.hex())));
            assertThat(entries(encoder.table())).containsExactlyElementsOf(block.table());
            assertThat(encoder.dynamicTableSize()).isEqualTo(block.tableSize());
        }
    }

    private static String encode(HpackEncoder encoder, List<Field> fields) {
        ByteSink out = new ByteSink(16);
        encoder.beginBlock(out);
        for (Field f : fields) encoder.field(out, f.name(), f.value());
        return hex(out.toByteArray());
    }
}
