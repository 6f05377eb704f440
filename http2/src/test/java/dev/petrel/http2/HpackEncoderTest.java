package dev.petrel.http2;

import static dev.petrel.http2.HpackTesting.decode;
import static dev.petrel.http2.HpackTesting.entries;
import static dev.petrel.http2.HpackTesting.field;
import static dev.petrel.http2.HpackTesting.hex;
import static dev.petrel.http2.HpackTesting.latin1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.http.ByteSink;
import dev.petrel.testkit.Allocations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The encoder's choices of representation, its table size updates (RFC 7541 section 4.2) and what it allocates. */
class HpackEncoderTest {
    private final ByteSink out = new ByteSink(64);

    @ParameterizedTest
    @CsvSource({"200,88", "204,89", "206,8a", "304,8b", "400,8c", "404,8d", "500,8e"})
    void statusInTheStaticTableIsOneByte(int status, String expected) throws HpackException {
        HpackEncoder encoder = new HpackEncoder(4096);
        encoder.status(out, status);
        assertThat(hex(out.toByteArray())).isEqualTo(expected);
        assertThat(decode(new HpackDecoder(4096, 1000), out.toByteArray()).fields())
                .containsExactly(field(":status", Integer.toString(status)));
    }

    @Test
    void otherStatusesAreLiteralsNamingTheStaticEntryAndNotIndexed() throws HpackException {
        HpackEncoder encoder = new HpackEncoder(4096);
        encoder.status(out, 302);
        assertThat(hex(out.toByteArray())).isEqualTo("08826402"); // without indexing, name 8, Huffman "302"
        encoder.status(out, 101);
        encoder.status(out, 999);
        assertThat(decode(new HpackDecoder(4096, 1000), out.toByteArray()).fields())
                .containsExactly(field(":status", "302"), field(":status", "101"), field(":status", "999"));
        assertThat(encoder.dynamicTableSize()).isZero();
        assertThatThrownBy(() -> encoder.status(out, 99)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> encoder.status(out, 1000)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void statusAndIndexedFieldsAllocateNothing() {
        HpackEncoder encoder = new HpackEncoder(4096);
        byte[] name = latin1("content-type");
        byte[] value = latin1("text/plain");
        byte[] method = latin1(":method");
        byte[] get = latin1("GET");
        ByteSink sink = new ByteSink(1 << 16);
        encoder.field(sink, name, value, false); // now in the dynamic table
        for (int i = 0; i < 1000; i++) {
            sink.clear();
            encoder.beginBlock(sink);
            encoder.status(sink, 200);
            encoder.status(sink, 404);
            encoder.status(sink, 302);
            encoder.field(sink, name, value, false);
            encoder.field(sink, method, get, false);
        }
        long before = Allocations.currentThread();
        for (int i = 0; i < 10_000; i++) {
            sink.clear();
            encoder.beginBlock(sink);
            encoder.status(sink, 200);
            encoder.status(sink, 404);
            encoder.status(sink, 302);
            encoder.field(sink, name, value, false);
            encoder.field(sink, method, get, false);
        }
        assertThat(Allocations.currentThread() - before).isLessThan(4_000);
        assertThat(hex(sink.toByteArray())).isEqualTo("888d08826402be82");
    }

    @Test
    void aNewFieldIsIndexedAndSentAsItsIndexAfterwards() {
        HpackEncoder encoder = new HpackEncoder(4096).withoutHuffman();
        encoder.field(out, "x-a", "1");
        encoder.field(out, "x-a", "1");
        encoder.field(out, "x-a", "2"); // the name is at 62 now
        assertThat(hex(out.toByteArray())).isEqualTo("4003782d610131" + "be" + "7e0132");
        assertThat(entries(encoder.table())).containsExactly(field("x-a", "2"), field("x-a", "1"));
    }

    @Test
    void aStaticNameIsPreferredToADynamicOne() {
        HpackEncoder encoder = new HpackEncoder(4096).withoutHuffman();
        encoder.field(out, "date", "a");
        encoder.field(out, "date", "b");
        assertThat(hex(out.toByteArray())).isEqualTo("610161" + "610162"); // name 33 both times
    }

    @Test
    void section6_2_3SensitiveFieldsAreNeverIndexedLiterals() throws HpackException {
        HpackEncoder encoder = new HpackEncoder(4096).withoutHuffman();
        encoder.field(out, latin1("authorization"), latin1("Basic x"), true);
        encoder.field(out, latin1("x-secret"), latin1("s"), true);
        encoder.field(out, latin1(":method"), latin1("GET"), true); // even a static field is sent as a literal
        assertThat(hex(out.toByteArray())).isEqualTo(
                "1f08" + "07" + "4261736963 2078".replace(" ", "") // never indexed, name 23 = 15 + 8
                + "10" + "08" + "782d736563726574" + "01" + "73" // never indexed, new name
                + "12" + "03" + "474554"); // never indexed, name 2
        assertThat(encoder.dynamicTableSize()).isZero();
        assertThat(decode(new HpackDecoder(4096, 1000), out.toByteArray()).fields())
                .containsExactly(field("authorization", "Basic x"), field("x-secret", "s"), field(":method", "GET"));
    }

    @Test
    void aFieldOverHalfTheTableIsNotIndexed() throws HpackException {
        HpackEncoder encoder = new HpackEncoder(4096);
        String large = "v".repeat(2048 - 32 - 3 + 1); // entry of 2049 bytes
        encoder.field(out, "x-a", large);
        assertThat(out.toByteArray()[0]).isEqualTo((byte) 0x00); // literal without indexing, new name
        assertThat(encoder.dynamicTableSize()).isZero();
        encoder.field(out, "x-a", large.substring(1)); // 2048 is half: indexed
        assertThat(encoder.dynamicTableSize()).isEqualTo(2048);
        assertThat(decode(new HpackDecoder(4096, 100_000), out.toByteArray()).fields())
                .containsExactly(field("x-a", large), field("x-a", large.substring(1)));
    }

    @Test
    void section5_2HuffmanOnlyWhenShorter() {
        HpackEncoder encoder = new HpackEncoder(4096);
        encoder.field(out, "x-a", "\u00ff\u00fe");
        // name: "x-a" Huffman is 3 bytes too (7 + 6 + 5 bits), so plain; value: plain, 26 + 27 bits
        assertThat(hex(out.toByteArray())).isEqualTo("4003782d6102fffe");
        out.clear();
        encoder.field(out, "x-b", "aaaa"); // 20 bits: 3 bytes for 4
        assertThat(hex(out.toByteArray())).isEqualTo("4003782d6283" + "18c63f");
    }

    @Test
    void section4_2AnEncoderUsingLessThanThePeersTableSaysSoInItsFirstBlock() throws HpackException {
        HpackEncoder encoder = new HpackEncoder(1024);
        encoder.beginBlock(out);
        assertThat(hex(out.toByteArray())).isEqualTo("3fe107"); // 1024 = 31 + 0x61 + (7 << 7)
        out.clear();
        encoder.beginBlock(out);
        assertThat(out.length()).isZero();
        assertThat(encoder.table().maxSize()).isEqualTo(1024);
    }

    @Test
    void section4_2TheSmallestSizeThenTheFinalOne() throws HpackException {
        HpackEncoder encoder = new HpackEncoder(4096);
        HpackDecoder decoder = new HpackDecoder(4096, 100_000);
        encoder.beginBlock(out);
        encoder.field(out, "x-a", "1");
        decode(decoder, out.toByteArray());

        out.clear();
        encoder.peerTableSizeSetting(100);
        encoder.peerTableSizeSetting(0);
        encoder.peerTableSizeSetting(8192); // more than the encoder uses: 4096
        encoder.beginBlock(out);
        encoder.field(out, "x-b", "2");
        assertThat(hex(out.toByteArray())).startsWith("20" + "3fe11f" + "40"); // 0, then 4096
        decode(decoder, out.toByteArray());
        assertThat(entries(encoder.table())).containsExactly(field("x-b", "2")); // x-a went at 0
        assertThat(entries(decoder.table())).isEqualTo(entries(encoder.table()));
    }

    @Test
    void section4_2NoUpdateWhenTheSizeInUseDoesNotChange() {
        HpackEncoder encoder = new HpackEncoder(4096);
        encoder.peerTableSizeSetting(65536); // the encoder keeps to 4096
        encoder.beginBlock(out);
        assertThat(out.length()).isZero();
        encoder.peerTableSizeSetting(100);
        encoder.peerTableSizeSetting(4096); // down and back: the eviction must still be signalled
        encoder.beginBlock(out);
        assertThat(hex(out.toByteArray())).isEqualTo("3f45" + "3fe11f");
    }

    @Test
    void section4_2GoingUpIsOneUpdate() {
        HpackEncoder encoder = new HpackEncoder(16384);
        encoder.beginBlock(out);
        assertThat(out.length()).isZero(); // the peer starts at 4096 and so does the encoder
        encoder.peerTableSizeSetting(8192);
        encoder.beginBlock(out);
        assertThat(hex(out.toByteArray())).isEqualTo("3fe13f"); // 8192 = 31 + 0x61 + (63 << 7)
        assertThat(encoder.table().maxSize()).isEqualTo(8192);
    }

    @Test
    void aTableOfZeroIndexesNothing() throws HpackException {
        HpackEncoder encoder = new HpackEncoder(0);
        encoder.beginBlock(out);
        encoder.field(out, "x-a", "1");
        encoder.field(out, ":method", "GET");
        assertThat(hex(out.toByteArray())).isEqualTo("20" + "0003782d610131" + "82");
        assertThat(encoder.dynamicTableSize()).isZero();
        assertThat(decode(new HpackDecoder(4096, 1000), out.toByteArray()).fields())
                .containsExactly(field("x-a", "1"), field(":method", "GET"));
    }

    @Test
    void theCallersArraysAreNotKept() throws HpackException {
        HpackEncoder encoder = new HpackEncoder(4096);
        HpackDecoder decoder = new HpackDecoder(4096, 1000);
        byte[] name = latin1("x-a");
        byte[] value = latin1("1");
        encoder.field(out, name, value, false);
        name[2] = 'b';
        value[0] = '2';
        encoder.field(out, name, value, false);
        encoder.field(out, latin1("x-a"), latin1("1"), false);
        assertThat(decode(decoder, out.toByteArray()).fields())
                .containsExactly(field("x-a", "1"), field("x-b", "2"), field("x-a", "1"));
        assertThat(out.toByteArray()[out.length() - 1]).isEqualTo((byte) 0xBF); // found at 63
    }
}
