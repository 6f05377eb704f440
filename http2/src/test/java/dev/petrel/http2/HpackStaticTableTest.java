package dev.petrel.http2;

import static dev.petrel.http2.HpackTesting.latin1;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The static table of RFC 7541 Appendix A and its lookups. */
class HpackStaticTableTest {
    @Test
    void hasTheSixtyOneEntriesOfAppendixA() {
        assertThat(HpackStaticTable.LENGTH).isEqualTo(61);
        assertThat(entry(1)).isEqualTo(":authority: ");
        assertThat(entry(2)).isEqualTo(":method: GET");
        assertThat(entry(8)).isEqualTo(":status: 200");
        assertThat(entry(14)).isEqualTo(":status: 500");
        assertThat(entry(16)).isEqualTo("accept-encoding: gzip, deflate");
        assertThat(entry(24)).isEqualTo("cache-control: ");
        assertThat(entry(33)).isEqualTo("date: ");
        assertThat(entry(46)).isEqualTo("location: ");
        assertThat(entry(55)).isEqualTo("set-cookie: ");
        assertThat(entry(61)).isEqualTo("www-authenticate: ");
    }

    @Test
    void everyEntryIsFoundByNameAndByNameAndValue() {
        for (int i = 1; i <= HpackStaticTable.LENGTH; i++) {
            byte[] name = HpackStaticTable.name(i);
            byte[] value = HpackStaticTable.value(i);
            int nameIndex = HpackStaticTable.nameIndex(name.clone(), 0, name.length);
            assertThat(nameIndex).isBetween(1, i);
            assertThat(HpackStaticTable.name(nameIndex)).isEqualTo(name);
            assertThat(HpackStaticTable.fieldIndex(nameIndex, value.clone(), 0, value.length)).isEqualTo(i);
        }
    }

    @Test
    void findsTheFirstIndexOfANameWithinALargerArray() {
        byte[] bytes = latin1("xx:statusyy");
        assertThat(HpackStaticTable.nameIndex(bytes, 2, 7)).isEqualTo(8);
        byte[] value = latin1("1304");
        assertThat(HpackStaticTable.fieldIndex(8, value, 1, 3)).isEqualTo(11);
    }

    @Test
    void unknownNamesAndValuesAreNotFound() {
        assertThat(HpackStaticTable.nameIndex(latin1("x-custom"), 0, 8)).isZero();
        assertThat(HpackStaticTable.nameIndex(latin1(":Status"), 0, 7)).isZero();
        assertThat(HpackStaticTable.nameIndex(latin1(""), 0, 0)).isZero();
        assertThat(HpackStaticTable.nameIndex(latin1(":statu"), 0, 6)).isZero();
        assertThat(HpackStaticTable.fieldIndex(8, latin1("302"), 0, 3)).isZero();
        assertThat(HpackStaticTable.fieldIndex(24, latin1("no-cache"), 0, 8)).isZero();
    }

    private static String entry(int i) {
        return HpackTesting.latin1(HpackStaticTable.name(i)) + ": " + HpackTesting.latin1(HpackStaticTable.value(i));
    }
}
