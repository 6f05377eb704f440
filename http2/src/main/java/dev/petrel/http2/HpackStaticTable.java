package dev.petrel.http2;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The static table of RFC 7541 Appendix A: 61 fields, indices 1 to 61, with a lookup from a name
 * (and a name and value) to an index that hashes the name's bytes and allocates nothing.
 *
 * <p>Entries with the same name share one name array and sit next to each other, so the entries
 * of a name are the run from its first index while the name array stays the same.
 */
final class HpackStaticTable {
    /** The number of entries; dynamic table indices start after it (section 2.3.3). */
    static final int LENGTH = 61;

    private static final String[][] ENTRIES = {
        {":authority", ""},
        {":method", "GET"},
        {":method", "POST"},
        {":path", "/"},
        {":path", "/index.html"},
        {":scheme", "http"},
        {":scheme", "https"},
        {":status", "200"},
        {":status", "204"},
        {":status", "206"},
        {":status", "304"},
        {":status", "400"},
        {":status", "404"},
        {":status", "500"},
        {"accept-charset", ""},
        {"accept-encoding", "gzip, deflate"},
        {"accept-language", ""},
        {"accept-ranges", ""},
        {"accept", ""},
        {"access-control-allow-origin", ""},
        {"age", ""},
        {"allow", ""},
        {"authorization", ""},
        {"cache-control", ""},
        {"content-disposition", ""},
        {"content-encoding", ""},
        {"content-language", ""},
        {"content-length", ""},
        {"content-location", ""},
        {"content-range", ""},
        {"content-type", ""},
        {"cookie", ""},
        {"date", ""},
        {"etag", ""},
        {"expect", ""},
        {"expires", ""},
        {"from", ""},
        {"host", ""},
        {"if-match", ""},
        {"if-modified-since", ""},
        {"if-none-match", ""},
        {"if-range", ""},
        {"if-unmodified-since", ""},
        {"last-modified", ""},
        {"link", ""},
        {"location", ""},
        {"max-forwards", ""},
        {"proxy-authenticate", ""},
        {"proxy-authorization", ""},
        {"range", ""},
        {"referer", ""},
        {"refresh", ""},
        {"retry-after", ""},
        {"server", ""},
        {"set-cookie", ""},
        {"strict-transport-security", ""},
        {"transfer-encoding", ""},
        {"user-agent", ""},
        {"vary", ""},
        {"via", ""},
        {"www-authenticate", ""},
    };

    /** Names and values by index; slot 0 is unused, as index 0 is not an index (section 6.1). */
    private static final byte[][] NAMES = new byte[LENGTH + 1][];
    private static final byte[][] VALUES = new byte[LENGTH + 1][];

    /** Open addressing over name hashes: the first index of each distinct name, 0 for an empty slot. */
    private static final int SLOTS = 128;
    private static final byte[] FIRST_INDEX = new byte[SLOTS];

    static {
        for (int i = 1; i <= LENGTH; i++) {
            String[] entry = ENTRIES[i - 1];
            byte[] name = entry[0].getBytes(StandardCharsets.ISO_8859_1);
            NAMES[i] = i > 1 && Arrays.equals(NAMES[i - 1], name) ? NAMES[i - 1] : name;
            VALUES[i] = entry[1].getBytes(StandardCharsets.ISO_8859_1);
            if (NAMES[i] != NAMES[i - 1]) {
                int slot = hash(name, 0, name.length) & (SLOTS - 1);
                while (FIRST_INDEX[slot] != 0) slot = (slot + 1) & (SLOTS - 1);
                FIRST_INDEX[slot] = (byte) i;
            }
        }
    }

    private HpackStaticTable() {}

    /** The name of entry {@code index} (1 to 61); callers must not change the array. */
    static byte[] name(int index) {
        return NAMES[index];
    }

    /** The value of entry {@code index} (1 to 61), empty for most; callers must not change the array. */
    static byte[] value(int index) {
        return VALUES[index];
    }

    /** The first index whose name is {@code len} bytes of {@code name} from {@code off}, or 0. */
    static int nameIndex(byte[] name, int off, int len) {
        int slot = hash(name, off, len) & (SLOTS - 1);
        while (true) {
            int index = FIRST_INDEX[slot];
            if (index == 0) return 0;
            if (Arrays.equals(NAMES[index], 0, NAMES[index].length, name, off, off + len)) return index;
            slot = (slot + 1) & (SLOTS - 1);
        }
    }

    /**
     * The index of the entry with the name of {@code nameIndex} (a first index, as
     * {@link #nameIndex} answers) and {@code value}, or 0.
     */
    static int fieldIndex(int nameIndex, byte[] value, int off, int len) {
        byte[] name = NAMES[nameIndex];
        for (int i = nameIndex; i <= LENGTH && NAMES[i] == name; i++) {
            if (Arrays.equals(VALUES[i], 0, VALUES[i].length, value, off, off + len)) return i;
        }
        return 0;
    }

    private static int hash(byte[] bytes, int off, int len) {
        int h = len;
        for (int i = off; i < off + len; i++) h = 31 * h + bytes[i];
        return h ^ (h >>> 7) ^ (h >>> 16);
    }
}
