package dev.petrel.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Header fields that arrive already split into name and value, as AJP/1.3 sends them. */
class HeaderFieldsBuilderTest {
    private final HeaderFieldsBuilder builder = new HeaderFieldsBuilder(64);

    private static byte[] latin1(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Adds a field line whose name and value lie somewhere in a larger buffer, as in a packet. */
    private static void addFromPacket(HeaderFieldsBuilder builder, String name, String value) {
        byte[] packet = latin1("\u0000\u0007" + name + "\u0000\u0000\u0009" + value + "\u0000trailing");
        builder.add(packet, 2, name.length(), 2 + name.length() + 3, value.length());
    }

    @Test
    void aNewBuilderHasNoFields() {
        HeaderFields fields = builder.fields();
        assertThat(fields.size()).isZero();
        assertThat(fields.first("Host")).isNull();
        assertThat(fields.all("Host")).isEmpty();
        assertThat(fields.contains("Host")).isFalse();
        assertThat(fields.toString()).isEmpty();
    }

    @Test
    void aFieldIsAddedFromOffsetsInASourceArray() {
        addFromPacket(builder, "X-Forwarded-For", "198.51.100.1");
        HeaderFields fields = builder.fields();
        assertThat(fields.size()).isEqualTo(1);
        assertThat(fields.name(0)).isEqualTo("X-Forwarded-For");
        assertThat(fields.value(0)).isEqualTo("198.51.100.1");
    }

    @Test
    void aFieldIsAddedWithANameKnownInAdvance() {
        byte[] packet = latin1("..www.example.com..");
        builder.add(latin1("Host"), packet, 2, 15);
        assertThat(builder.fields().name(0)).isEqualTo("Host");
        assertThat(builder.fields().value(0)).isEqualTo("www.example.com");
    }

    @Test
    void bothFormsMixInOrder() {
        builder.add(latin1("Host"), latin1("h"), 0, 1);
        addFromPacket(builder, "x-custom", "1");
        builder.add(latin1("Content-Length"), latin1("  42"), 2, 2);
        addFromPacket(builder, "Cookie", "a=b");
        assertThat(builder.fields().toString()).isEqualTo("Host: h\nx-custom: 1\nContent-Length: 42\nCookie: a=b\n");
    }

    @Test
    void namesAreKeptAsGivenAndLookedUpCaseInsensitively() {
        addFromPacket(builder, "x-MiXeD", "1");
        builder.add(latin1("Content-Type"), latin1("text/html"), 0, 9);
        HeaderFields fields = builder.fields();
        assertThat(fields.name(0)).isEqualTo("x-MiXeD");
        assertThat(fields.first("X-MIXED")).isEqualTo("1");
        assertThat(fields.first("x-mixed")).isEqualTo("1");
        assertThat(fields.contains("CONTENT-TYPE")).isTrue();
        assertThat(fields.contains("content-typ")).isFalse();
        assertThat(fields.contains("content-types")).isFalse();
        assertThat(fields.all("content-type")).containsExactly("text/html");
    }

    @Test
    void repeatedNamesAreAllKeptInOrder() {
        addFromPacket(builder, "Cookie", "a=1");
        addFromPacket(builder, "Accept", "*/*");
        builder.add(latin1("Cookie"), latin1("b=2"), 0, 3);
        addFromPacket(builder, "COOKIE", "c=3");
        HeaderFields fields = builder.fields();
        assertThat(fields.first("cookie")).isEqualTo("a=1");
        assertThat(fields.all("Cookie")).containsExactly("a=1", "b=2", "c=3");
        assertThat(fields.all("Accept")).containsExactly("*/*");
    }

    @Test
    void valuesKeepEveryByteAsIso88591() {
        byte[] value = new byte[256];
        for (int i = 0; i < value.length; i++) value[i] = (byte) i;
        builder.add(latin1("X-Bytes"), value, 0, value.length);
        addFromPacket(builder, "X-Latin", "caf\u00e9 \u00ff");
        assertThat(builder.fields().value(0).getBytes(StandardCharsets.ISO_8859_1)).isEqualTo(value);
        assertThat(builder.fields().first("x-latin")).isEqualTo("caf\u00e9 \u00ff");
    }

    @Test
    void emptyValuesAreEmpty() {
        builder.add(latin1("X-Empty"), new byte[0], 0, 0);
        addFromPacket(builder, "X-Also", "");
        assertThat(builder.fields().first("X-Empty")).isEmpty();
        assertThat(builder.fields().first("X-Also")).isEmpty();
        assertThat(builder.fields().contains("x-empty")).isTrue();
    }

    @Test
    void theBytesAreCopiedSoTheSourceMayBeReused() {
        byte[] packet = latin1("NameValue");
        byte[] name = latin1("Coded");
        builder.add(packet, 0, 4, 4, 5);
        builder.add(name, packet, 4, 5);
        Arrays.fill(packet, (byte) 'x');
        Arrays.fill(name, (byte) 'y');
        assertThat(builder.fields().toString()).isEqualTo("Name: Value\nCoded: Value\n");
    }

    @Test
    void fieldsIsOneLiveView() {
        HeaderFields fields = builder.fields();
        assertThat(builder.fields()).isSameAs(fields);
        addFromPacket(builder, "A", "1");
        assertThat(fields.size()).isEqualTo(1);
        builder.clear();
        assertThat(fields.size()).isZero();
        addFromPacket(builder, "B", "2");
        assertThat(fields.first("B")).isEqualTo("2");
    }

    @Test
    void clearEmptiesEverything() {
        addFromPacket(builder, "Host", "old.example");
        builder.add(latin1("Cookie"), latin1("old"), 0, 3);
        builder.clear();
        HeaderFields fields = builder.fields();
        assertThat(fields.size()).isZero();
        assertThat(fields.first("Host")).isNull();
        assertThat(fields.all("Cookie")).isEmpty();
        assertThat(fields.contains("Host")).isFalse();
        assertThat(fields.toString()).isEmpty();
        assertThatThrownBy(() -> fields.name(0)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> fields.value(0)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void afterClearOnlyTheNewFieldsAreSeen() {
        addFromPacket(builder, "Host", "a-rather-long-old-host.example");
        addFromPacket(builder, "X-Old", "1");
        builder.clear();
        addFromPacket(builder, "Host", "new");
        HeaderFields fields = builder.fields();
        assertThat(fields.size()).isEqualTo(1);
        assertThat(fields.first("Host")).isEqualTo("new");
        assertThat(fields.contains("X-Old")).isFalse();
        assertThat(fields.toString()).isEqualTo("Host: new\n");
    }

    @Test
    void indexesOutsideTheFieldsAreRefused() {
        addFromPacket(builder, "A", "1");
        assertThatThrownBy(() -> builder.fields().name(1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> builder.fields().value(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void containsTokenReadsCommaSeparatedValues() {
        builder.add(latin1("Connection"), latin1("keep-alive, Upgrade"), 0, 19);
        assertThat(builder.fields().containsToken("connection", "upgrade")).isTrue();
        assertThat(builder.fields().containsToken("Connection", "close")).isFalse();
    }

    @Test
    void growingBeyondTheInitialCapacityKeepsEarlierFieldsIntact() {
        HeaderFieldsBuilder small = new HeaderFieldsBuilder(0);
        for (int i = 0; i < 200; i++) {
            if (i % 2 == 0) addFromPacket(small, "X-Field-" + i, "value-" + i + "-" + "v".repeat(i % 13));
            else small.add(latin1("Coded-" + i), latin1("value-" + i), 0, ("value-" + i).length());
        }
        HeaderFields fields = small.fields();
        assertThat(fields.size()).isEqualTo(200);
        for (int i = 0; i < 200; i++) {
            String name = i % 2 == 0 ? "X-Field-" + i : "Coded-" + i;
            String value = i % 2 == 0 ? "value-" + i + "-" + "v".repeat(i % 13) : "value-" + i;
            assertThat(fields.name(i)).isEqualTo(name);
            assertThat(fields.value(i)).isEqualTo(value);
            assertThat(fields.first(name.toUpperCase())).isEqualTo(value);
        }
    }

    @Test
    void oneValueLargerThanTwiceTheStorageFits() {
        HeaderFieldsBuilder small = new HeaderFieldsBuilder(16);
        addFromPacket(small, "A", "1");
        String big = "b".repeat(10_000);
        small.add(latin1("Big"), latin1(big), 0, big.length());
        addFromPacket(small, "Z", "26");
        assertThat(small.fields().first("a")).isEqualTo("1");
        assertThat(small.fields().first("big")).isEqualTo(big);
        assertThat(small.fields().first("z")).isEqualTo("26");
    }

    @Test
    void aClearedBuilderRefillsBeyondWhatItHeldBefore() {
        HeaderFieldsBuilder small = new HeaderFieldsBuilder(16);
        for (int round = 1; round <= 5; round++) {
            small.clear();
            int count = round * 20;
            for (int i = 0; i < count; i++) addFromPacket(small, "R" + round + "-" + i, Integer.toString(i * round));
            assertThat(small.fields().size()).isEqualTo(count);
            for (int i = 0; i < count; i++) assertThat(small.fields().value(i)).isEqualTo(Integer.toString(i * round));
            assertThat(small.fields().contains("R" + (round - 1) + "-0")).isFalse();
        }
    }

    record Field(String name, String value, boolean knownName) {}

    @Provide
    Arbitrary<List<Field>> fieldLists() {
        Arbitrary<String> names = Arbitraries.strings().withCharRange('A', 'Z').withCharRange('a', 'z').withChars('-')
                .ofMinLength(1).ofMaxLength(12);
        Arbitrary<String> values = Arbitraries.strings().withCharRange(' ', '~').withCharRange('\u0080', '\u00ff')
                .ofMaxLength(60);
        return Combinators.combine(names, values, Arbitraries.of(true, false)).as(Field::new).list().ofMaxSize(24);
    }

    @Property(tries = 1000)
    void whatIsAddedIsWhatIsSeenAcrossClears(@ForAll("fieldLists") List<Field> first, @ForAll("fieldLists") List<Field> second,
            @ForAll @IntRange(max = 256) int initialCapacity) {
        HeaderFieldsBuilder reused = new HeaderFieldsBuilder(initialCapacity);
        for (List<Field> message : List.of(first, second)) {
            reused.clear();
            for (Field f : message) {
                if (f.knownName()) reused.add(latin1(f.name()), latin1("<" + f.value() + ">"), 1, f.value().length());
                else addFromPacket(reused, f.name(), f.value());
            }
            HeaderFields fields = reused.fields();
            assertThat(fields.size()).isEqualTo(message.size());
            for (int i = 0; i < message.size(); i++) {
                assertThat(fields.name(i)).isEqualTo(message.get(i).name());
                assertThat(fields.value(i)).isEqualTo(message.get(i).value());
            }
            Map<String, List<String>> byName = new LinkedHashMap<>();
            for (Field f : message) byName.computeIfAbsent(f.name().toLowerCase(), k -> new ArrayList<>()).add(f.value());
            byName.forEach((name, expected) -> {
                assertThat(fields.all(name)).isEqualTo(expected);
                assertThat(fields.first(name.toUpperCase())).isEqualTo(expected.getFirst());
                assertThat(fields.contains(name)).isTrue();
            });
            assertThat(fields.contains("not-generated-because-of-the-digit-0")).isFalse();
        }
    }
}
