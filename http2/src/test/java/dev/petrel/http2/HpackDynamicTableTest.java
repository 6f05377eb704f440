package dev.petrel.http2;

import static dev.petrel.http2.HpackTesting.entries;
import static dev.petrel.http2.HpackTesting.field;
import static dev.petrel.http2.HpackTesting.latin1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The dynamic table: sizes (RFC 7541 section 4.1), eviction (section 4.4) and resizing (section 4.3). */
class HpackDynamicTableTest {
    @Test
    void section4_1SizeIsNameValueAndThirtyTwo() {
        HpackDynamicTable table = new HpackDynamicTable(4096);
        table.add(latin1("ab"), latin1("cde"));
        assertThat(table.size()).isEqualTo(37);
        table.add(latin1(""), latin1(""));
        assertThat(table.size()).isEqualTo(69);
        assertThat(table.length()).isEqualTo(2);
        assertThat(entries(table)).containsExactly(field("", ""), field("ab", "cde"));
    }

    @Test
    void section4_4EvictsTheOldestUntilTheNewEntryFits() {
        HpackDynamicTable table = new HpackDynamicTable(100);
        table.add(latin1("a"), latin1("1")); // 34
        table.add(latin1("b"), latin1("2")); // 68
        table.add(latin1("c"), latin1("3")); // 102 > 100: a goes
        assertThat(entries(table)).containsExactly(field("c", "3"), field("b", "2"));
        assertThat(table.size()).isEqualTo(68);
        table.add(latin1("dddddddddd"), latin1("")); // 42: b goes
        assertThat(entries(table)).containsExactly(field("dddddddddd", ""), field("c", "3"));
        assertThat(table.size()).isEqualTo(76);
    }

    @Test
    void section4_4AnEntryLargerThanTheTableEmptiesIt() {
        HpackDynamicTable table = new HpackDynamicTable(100);
        table.add(latin1("a"), latin1("1"));
        table.add(latin1("n"), new byte[68]); // 101
        assertThat(table.length()).isZero();
        assertThat(table.size()).isZero();
        table.add(latin1("n"), new byte[67]); // exactly 100 fits
        assertThat(table.size()).isEqualTo(100);
    }

    @Test
    void section4_3LoweringTheMaximumEvicts() {
        HpackDynamicTable table = new HpackDynamicTable(4096);
        for (int i = 0; i < 10; i++) table.add(latin1("n" + i), latin1("v")); // 35 each
        table.setMaxSize(100);
        assertThat(entries(table)).containsExactly(field("n9", "v"), field("n8", "v"));
        table.setMaxSize(0);
        assertThat(table.length()).isZero();
        table.add(latin1(""), latin1(""));
        assertThat(table.length()).isZero();
        table.setMaxSize(4096);
        table.add(latin1("x"), latin1("y"));
        assertThat(entries(table)).containsExactly(field("x", "y"));
    }

    @Test
    void theRingGrowsAndWrapsKeepingTheOrder() {
        HpackDynamicTable table = new HpackDynamicTable(40 * 34);
        for (int i = 0; i < 1000; i++) {
            table.add(latin1(Integer.toString(i % 10)), latin1(Integer.toString(i % 7)));
            int expectedLength = Math.min(i + 1, 40);
            assertThat(table.length()).isEqualTo(expectedLength);
            for (int k = 1; k <= expectedLength; k++) {
                int added = i - k + 1;
                assertThat(latin1(table.name(k))).isEqualTo(Integer.toString(added % 10));
                assertThat(latin1(table.value(k))).isEqualTo(Integer.toString(added % 7));
            }
        }
    }

    @Test
    void findsTheNewestMatch() {
        HpackDynamicTable table = new HpackDynamicTable(4096);
        table.add(latin1("a"), latin1("1"));
        table.add(latin1("b"), latin1("2"));
        table.add(latin1("a"), latin1("3"));
        assertThat(table.indexOf(latin1("a"), latin1("1"))).isEqualTo(3);
        assertThat(table.indexOf(latin1("a"), latin1("2"))).isZero();
        assertThat(table.nameIndexOf(latin1("a"))).isEqualTo(1);
        assertThat(table.nameIndexOf(latin1("c"))).isZero();
    }

    @Test
    void refusesIndicesOutsideTheTable() {
        HpackDynamicTable table = new HpackDynamicTable(4096);
        table.add(latin1("a"), latin1("1"));
        assertThatThrownBy(() -> table.name(0)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> table.name(2)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
