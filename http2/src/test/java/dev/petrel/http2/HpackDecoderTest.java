package dev.petrel.http2;

import static dev.petrel.http2.HpackTesting.decode;
import static dev.petrel.http2.HpackTesting.decodeDirect;
import static dev.petrel.http2.HpackTesting.entries;
import static dev.petrel.http2.HpackTesting.field;
import static dev.petrel.http2.HpackTesting.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.http.ByteSink;
import dev.petrel.http2.HpackDecoder.Result;
import dev.petrel.http2.HpackTesting.Decoded;
import dev.petrel.testkit.Allocations;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** What the decoder refuses (RFC 7541), the list size limit (RFC 9113 section 10.5.1) and what it allocates. */
class HpackDecoderTest {
    private static final int NO_LIMIT = Integer.MAX_VALUE;

    @Test
    void section6_1IndexZeroIsAnError() {
        assertRefused("80", "HPACK index 0");
        assertRefused("8280", "HPACK index 0");
    }

    @Test
    void section2_3_3AnIndexBeyondBothTablesIsAnError() {
        assertRefused("be", "HPACK index beyond the tables"); // 62 with an empty dynamic table
        assertRefused("ff80808000", "HPACK index beyond the tables"); // 127, redundant zero groups
        assertRefused("0f2f0161", "HPACK index beyond the tables"); // a literal's name at 62
        assertRefused("7f0001610162", "HPACK index beyond the tables"); // 63 as an indexed name
    }

    @Test
    void section2_3_3TheLastIndexOfTheDynamicTableIsFine() throws HpackException {
        HpackDecoder decoder = new HpackDecoder(4096, NO_LIMIT);
        // two entries, then index 63 (the older one) and 64 (beyond)
        decode(decoder, hex("400161016140016201624001630163"));
        assertThat(decode(decoder, hex("c0")).fields()).containsExactly(field("a", "a"));
        assertThatThrownBy(() -> decode(decoder, hex("c1"))).hasMessage("HPACK index beyond the tables");
    }

    @Test
    void section6_3ASizeUpdateAboveTheAdvertisedSizeIsAnError() throws HpackException {
        assertRefused("3fe21f", "HPACK table size update above the advertised size"); // 4097
        HpackDecoder decoder = new HpackDecoder(4096, NO_LIMIT);
        decode(decoder, hex("3fe11f")); // 4096 is fine
        HpackDecoder small = new HpackDecoder(100, NO_LIMIT);
        assertThatThrownBy(() -> decode(small, hex("3f46"))).hasMessage("HPACK table size update above the advertised size"); // 101
    }

    @Test
    void section4_2ASizeUpdateAfterAFieldIsAnError() {
        assertRefused("8220", "HPACK table size update after a field");
        assertRefused("2082 20", "HPACK table size update after a field");
        assertRefused("4001610162 20", "HPACK table size update after a field");
    }

    @Test
    void section4_2SizeUpdatesAtTheStartAreApplied() throws HpackException {
        HpackDecoder decoder = new HpackDecoder(4096, NO_LIMIT);
        decode(decoder, hex("4001610162 4001630164")); // two entries of 34
        assertThat(decoder.dynamicTableSize()).isEqualTo(68);
        // down to 40 (keeps the newest), then up to 4096: both at the start of one block
        Decoded decoded = decode(decoder, hex("3f09 3fe11f be"));
        assertThat(decoded.fields()).containsExactly(field("c", "d"));
        assertThat(decoder.dynamicTableSize()).isEqualTo(34);
        assertThat(decoder.table().maxSize()).isEqualTo(4096);
        // and a block of nothing but an update is a valid block
        decode(decoder, hex("20"));
        assertThat(decoder.dynamicTableSize()).isZero();
    }

    @Test
    void section5_2AStringLongerThanTheRestOfTheBlockIsAnError() {
        assertRefused("400361 62", "HPACK string longer than the block");
        assertRefused("41 8561 62", "HPACK string longer than the block");
        assertRefused("00 7f80808008", "HPACK string longer than the block"); // 2^24 + 127
    }

    @Test
    void section5_TruncatedRepresentationsAreErrors() {
        assertRefused("40", "HPACK string truncated"); // no name
        assertRefused("400161", "HPACK string truncated"); // no value
        assertRefused("41", "HPACK string truncated"); // indexed name, no value
        assertRefused("ff", "HPACK integer truncated"); // indexed field, index cut
        assertRefused("3f", "HPACK integer truncated"); // size update cut
        assertRefused("7f", "HPACK integer truncated"); // name index cut
        assertRefused("417f", "HPACK integer truncated"); // string length cut
    }

    @Test
    void section5_1AnIndexBeyond2To31Minus1IsAnError() {
        assertRefused("ffffffffff0f", "HPACK integer too large");
    }

    @Test
    void section5_2HuffmanErrorsInALiteralAreErrors() {
        assertRefused("41 84ffffffff", "HPACK Huffman string contains EOS");
        assertRefused("41 82 1fff", "HPACK Huffman padding longer than 7 bits");
        assertRefused("41 81 18", "HPACK Huffman padding not all ones");
        assertRefused("40 8118 0161", "HPACK Huffman padding not all ones"); // in a name
    }

    @Test
    void errorsAreCompressionErrorsOfTheConnection() {
        HpackException e = new HpackException("HPACK index 0");
        assertThat(e.toError()).isEqualTo(Http2Error.connection(Http2ErrorCode.COMPRESSION_ERROR, "HPACK index 0"));
        assertThat(e.toError().isConnectionError()).isTrue();
    }

    @Test
    void anEmptyBlockIsAnEmptyList() throws HpackException {
        assertThat(decode(new HpackDecoder(4096, 0), new byte[0])).isEqualTo(new Decoded(Result.OK, java.util.List.of()));
    }

    @Test
    void decodesAFieldBlockInTheMiddleOfABuffer() throws HpackException {
        HpackDecoder decoder = new HpackDecoder(4096, NO_LIMIT);
        ByteBuffer buffer = ByteBuffer.wrap(hex("ffff 82 400161 0162 ffff"), 2, 6).slice();
        buffer.position(0);
        HpackTesting.Collecting sink = new HpackTesting.Collecting();
        assertThat(decoder.decode(buffer, sink)).isEqualTo(Result.OK);
        assertThat(sink.fields).containsExactly(field(":method", "GET"), field("a", "b"));
        assertThat(buffer.position()).isEqualTo(buffer.limit());
    }

    @Test
    void rfc9113Section10_5_1AListOverTheLimitIsTooLargeAndTheTableStaysInStep() throws HpackException {
        // :method GET is 42; "x-a" with 30 bytes is 65: 107 > 100. The sink stops there, but
        // "x-b: bb" after it must still enter the table, as the peer's encoder added it.
        HpackDecoder decoder = new HpackDecoder(4096, 100);
        String xa = "a".repeat(30);
        ByteSink block = new ByteSink(64);
        HpackEncoder encoder = new HpackEncoder(4096).withoutHuffman();
        encoder.beginBlock(block);
        encoder.field(block, ":method", "GET");
        encoder.field(block, "x-a", xa);
        encoder.field(block, "x-b", "bb");
        encoder.field(block, ":path", "/");

        Decoded decoded = decode(decoder, block.toByteArray());
        assertThat(decoded.result()).isEqualTo(Result.TOO_LARGE);
        assertThat(decoded.fields()).containsExactly(field(":method", "GET"));
        assertThat(entries(decoder.table())).containsExactly(field("x-b", "bb"), field("x-a", xa));

        // the next blocks name the entries added after the limit, and read right
        assertThat(decode(decoder, hex("be"))).isEqualTo(new Decoded(Result.OK, java.util.List.of(field("x-b", "bb"))));
        assertThat(decode(decoder, hex("bf"))).isEqualTo(new Decoded(Result.OK, java.util.List.of(field("x-a", xa))));
    }

    @Test
    void aListOfExactlyTheLimitIsFine() throws HpackException {
        assertThat(decode(new HpackDecoder(4096, 42), hex("82")).result()).isEqualTo(Result.OK);
        assertThat(decode(new HpackDecoder(4096, 41), hex("82")).result()).isEqualTo(Result.TOO_LARGE);
    }

    @Test
    void aBlockNamingOneLargeEntryTenThousandTimesIsTooLargeWithoutBuildingTheList() throws HpackException {
        // One entry of 6 + 4000 + 32 = 4038 bytes, then 10,000 references to it: a 40 MB list
        // from a 14 kB block. The sink sees what fits in the limit, and the decoder builds nothing.
        ByteSink block = new ByteSink(16_000);
        block.write(hex("40 06")).writeLatin1("x-bomb");
        HpackInteger.encode(block, 0x00, 7, 4000);
        block.writeLatin1("b".repeat(4000));
        for (int i = 0; i < 10_000; i++) block.write(0xBE);
        byte[] bytes = block.toByteArray();

        HpackDecoder decoder = new HpackDecoder(4096, 16_384);
        decode(decoder, hex("82")); // warm up the buffers
        int[] calls = {0};
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        FieldSink counting = (n, no, nl, v, vo, vl) -> calls[0]++;
        long before = Allocations.currentThread();
        Result result = decoder.decode(buffer, counting);
        long allocated = Allocations.currentThread() - before;

        assertThat(result).isEqualTo(Result.TOO_LARGE);
        assertThat(calls[0]).isEqualTo(4); // 4 * 4038 = 16152 fits; the fifth does not
        assertThat(buffer.hasRemaining()).isFalse();
        assertThat(decoder.dynamicTableSize()).isEqualTo(4038);
        // the entry's own copy, and no more than slack: nothing per reference
        assertThat(allocated).isLessThan(4000 + 2_000);
    }

    @Test
    void aHugeHuffmanLiteralIsBoundedByTheBlock() throws HpackException {
        // A literal is never larger than the block carrying it (Huffman decodes to at most 8/5 of it).
        ByteSink block = new ByteSink(64);
        block.write(0x00).write(0x01).write('x');
        byte[] value = "0".repeat(100_000).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        HpackInteger.encode(block, 0x80, 7, (int) Huffman.encodedLength(value, 0, value.length));
        Huffman.encode(block, value, 0, value.length);
        Decoded decoded = decode(new HpackDecoder(4096, 1000), block.toByteArray());
        assertThat(decoded.result()).isEqualTo(Result.TOO_LARGE);
        assertThat(decoded.fields()).isEmpty();
    }

    @Test
    void heapAndDirectBuffersDecodeAlike() throws HpackException {
        byte[] block = hex("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff 0003 6162 6303 6465 66 10 811f 811f");
        Decoded heap = decode(new HpackDecoder(4096, NO_LIMIT), block);
        Decoded direct = decodeDirect(new HpackDecoder(4096, NO_LIMIT), block);
        assertThat(direct).isEqualTo(heap);
        assertThat(heap.fields()).endsWith(field("abc", "def"), field("a", "a"));
    }

    @Test
    void theSteadyStateAllocatesNothingButTableEntries() throws HpackException {
        // Indexed fields, literals without indexing (plain and Huffman), from heap and direct buffers.
        byte[] bytes = hex("8286 84be 0f2f 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff 0003 6162 6303 6465 66 1f08 06 736563726574");
        HpackDecoder decoder = new HpackDecoder(4096, NO_LIMIT);
        decode(decoder, hex("418cf1e3c2e5f23a6ba0ab90f4ff")); // puts :authority at 62
        ByteBuffer heap = ByteBuffer.wrap(bytes);
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        long[] total = {0};
        FieldSink sink = (n, no, nl, v, vo, vl) -> total[0] += nl + vl;
        for (int i = 0; i < 1000; i++) {
            decoder.decode(heap.rewind(), sink);
            decoder.decode(direct.rewind(), sink);
        }
        long before = Allocations.currentThread();
        for (int i = 0; i < 10_000; i++) {
            decoder.decode(heap.rewind(), sink);
            decoder.decode(direct.rewind(), sink);
        }
        long allocated = Allocations.currentThread() - before;
        assertThat(total[0]).isPositive();
        assertThat(allocated).as("bytes allocated by 20,000 decodes").isLessThan(4_000);
    }

    private static void assertRefused(String dump, String reason) {
        for (boolean direct : new boolean[] {false, true}) {
            HpackDecoder decoder = new HpackDecoder(4096, NO_LIMIT);
            assertThatThrownBy(() -> {
                if (direct) decodeDirect(decoder, hex(dump));
                else decode(decoder, hex(dump));
            }).isInstanceOf(HpackException.class).hasMessage(reason);
        }
    }
}
