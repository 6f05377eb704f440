package dev.petrel.http2;

import static dev.petrel.http2.HpackTesting.entries;
import static dev.petrel.http2.HpackTesting.latin1;
import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.ByteSink;
import dev.petrel.http2.HpackTesting.Field;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Whatever the encoder writes, the decoder reads back: random lists over several blocks on one
 * encoder and decoder pair, the peer's table size setting changing between blocks, and both
 * dynamic tables the same after every block.
 */
class HpackRoundTripTest {
    /** One field to send: names are lower-case tokens, values any bytes. */
    record Sent(String name, byte[] value, boolean sensitive) {}

    /** Settings the peer sends before a block (none, one, or several), then the block. */
    record Step(List<Long> settings, List<Sent> fields) {}

    private static final List<String> NAMES = List.of(
            ":status", ":method", ":path", "content-type", "content-length", "date", "set-cookie", "cache-control",
            "accept-encoding", "x-request-id", "x-a", "server", "vary", "etag");

    @Provide
    Arbitrary<List<Step>> sessions() {
        Arbitrary<String> names = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of(NAMES)),
                Tuple.of(1, Arbitraries.strings().withCharRange('a', 'z').withChars('-', '_', '0', '!').ofMinLength(1).ofMaxLength(20)));
        Arbitrary<byte[]> values = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.of("", "GET", "200", "gzip, deflate", "text/html; charset=utf-8", "no-cache", "1").map(HpackTesting::latin1)),
                Tuple.of(2, Arbitraries.bytes().array(byte[].class).ofMaxSize(40)),
                Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMaxSize(3000)));
        Arbitrary<Sent> fields = Combinators.combine(names, values, Arbitraries.integers().between(0, 9).map(i -> i == 0))
                .as(Sent::new);
        Arbitrary<Long> settings = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.of(0L, 1L, 33L, 100L, 256L, 4096L, 8192L, 4_294_967_295L)),
                Tuple.of(1, Arbitraries.longs().between(0, 10_000)));
        Arbitrary<List<Long>> settingLists = Arbitraries.frequencyOf(
                Tuple.of(5, Arbitraries.just(List.of())),
                Tuple.of(2, settings.list().ofMinSize(1).ofMaxSize(3)));
        return Combinators.combine(settingLists, fields.list().ofMaxSize(30)).as(Step::new).list().ofMinSize(1).ofMaxSize(8);
    }

    @Property
    void decodesWhatTheEncoderWrote(@ForAll("sessions") List<Step> session, @ForAll("tableSizes") int encoderTableSize)
            throws HpackException {
        HpackEncoder encoder = new HpackEncoder(encoderTableSize);
        HpackDecoder decoder = new HpackDecoder(8192, Integer.MAX_VALUE);
        ByteSink out = new ByteSink(256);
        for (Step step : session) {
            for (long setting : step.settings()) encoder.peerTableSizeSetting(setting);
            out.clear();
            encoder.beginBlock(out);
            List<Field> expected = new ArrayList<>();
            for (Sent sent : step.fields()) {
                if (sent.name().equals(":status") && sent.sensitive()) {
                    int status = 100 + Math.floorMod(sent.value().length * 37, 900);
                    encoder.status(out, status);
                    expected.add(new Field(":status", Integer.toString(status)));
                } else {
                    encoder.field(out, latin1(sent.name()), sent.value(), sent.sensitive());
                    expected.add(new Field(sent.name(), latin1(sent.value())));
                }
            }
            HpackTesting.Decoded decoded = HpackTesting.decode(decoder, out.toByteArray());
            assertThat(decoded.result()).isEqualTo(HpackDecoder.Result.OK);
            assertThat(decoded.fields()).containsExactlyElementsOf(expected);
            assertThat(entries(decoder.table())).isEqualTo(entries(encoder.table()));
            assertThat(decoder.dynamicTableSize()).isEqualTo(encoder.dynamicTableSize());
            assertThat(decoder.table().maxSize()).isEqualTo(encoder.table().maxSize());
        }
    }

    /** Any bytes, on a decoder that has seen a block: they decode, or fail with an HpackException and nothing else. */
    @Property
    void anyBytesDecodeOrFailWithACompressionError(@ForAll("noise") byte[] block) {
        HpackDecoder decoder = new HpackDecoder(4096, 2000);
        try {
            HpackTesting.decode(decoder, HpackTesting.hex("4003782d6101314003782d620132"));
            HpackTesting.decode(decoder, block);
        } catch (HpackException e) {
            assertThat(e.getMessage()).startsWith("HPACK ");
        }
        assertThat(decoder.dynamicTableSize()).isBetween(0, 4096);
    }

    @Provide
    Arbitrary<byte[]> noise() {
        // mostly the bytes representations start with, so that runs go past the first field
        Arbitrary<Byte> bytes = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of((byte) 0x82, (byte) 0xbe, (byte) 0xbf, (byte) 0x40, (byte) 0x10, (byte) 0x00,
                        (byte) 0x20, (byte) 0x3f, (byte) 0x81, (byte) 0x01, (byte) 0x1f, (byte) 0xff, (byte) 0x7f, (byte) 0x61)),
                Tuple.of(1, Arbitraries.bytes()));
        return bytes.list().ofMaxSize(60).map(list -> {
            byte[] array = new byte[list.size()];
            for (int i = 0; i < array.length; i++) array[i] = list.get(i);
            return array;
        });
    }

    @Provide
    Arbitrary<Integer> tableSizes() {
        return Arbitraries.of(0, 64, 256, 1000, 4096, 8192);
    }
}
