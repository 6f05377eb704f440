package dev.petrel.http2;

import java.util.Arrays;

/**
 * The dynamic table of RFC 7541 section 2.3.2: a first-in first-out list of fields, the newest at
 * index 1, kept in a ring of slots that grows only when more entries fit than it has slots.
 *
 * <p>An entry's size is its name and value lengths plus 32 (section 4.1). Adding an entry first
 * evicts the oldest until it fits, and an entry larger than the whole table empties it and is not
 * added (section 4.4). Lowering the maximum size evicts the same way (section 4.3).
 *
 * <p>Entries hold arrays that are never changed once added, so a new entry may share its name
 * array with an older one even after that one is evicted.
 */
final class HpackDynamicTable {
    /** The per-entry overhead of section 4.1. */
    static final int ENTRY_OVERHEAD = 32;

    private byte[][] names = new byte[16][];
    private byte[][] values = new byte[16][];
    private int newest = -1;
    private int length;
    private int size;
    private int maxSize;

    /** An empty table holding at most {@code maxSize} bytes in section 4.1 terms. */
    HpackDynamicTable(int maxSize) {
        this.maxSize = maxSize;
    }

    /** The number of entries. */
    int length() {
        return length;
    }

    /** The sum of the entries' sizes. */
    int size() {
        return size;
    }

    /** The maximum size now in force. */
    int maxSize() {
        return maxSize;
    }

    /** The name of entry {@code index}, 1 being the newest; callers must not change the array. */
    byte[] name(int index) {
        return names[slot(index)];
    }

    /** The value of entry {@code index}, 1 being the newest; callers must not change the array. */
    byte[] value(int index) {
        return values[slot(index)];
    }

    /** Sets a new maximum size, evicting the oldest entries until the table fits it. */
    void setMaxSize(int newMaxSize) {
        maxSize = newMaxSize;
        while (size > maxSize) evictOldest();
    }

    /** Adds a field as the newest entry; the table keeps both arrays as they are. */
    void add(byte[] name, byte[] value) {
        long entrySize = (long) name.length + value.length + ENTRY_OVERHEAD;
        if (entrySize > maxSize) {
            while (length > 0) evictOldest();
            return;
        }
        while (size + entrySize > maxSize) evictOldest();
        if (length == names.length) grow();
        newest = (newest + 1) & (names.length - 1);
        names[newest] = name;
        values[newest] = value;
        length++;
        size += (int) entrySize;
    }

    /** The index of the newest entry with this name and value, or 0. */
    int indexOf(byte[] name, byte[] value) {
        for (int i = 1; i <= length; i++) {
            int slot = slot(i);
            if (Arrays.equals(names[slot], name) && Arrays.equals(values[slot], value)) return i;
        }
        return 0;
    }

    /** The index of the newest entry with this name, or 0. */
    int nameIndexOf(byte[] name) {
        for (int i = 1; i <= length; i++) {
            if (Arrays.equals(names[slot(i)], name)) return i;
        }
        return 0;
    }

    private int slot(int index) {
        if (index < 1 || index > length) throw new IndexOutOfBoundsException(index);
        return (newest - index + 1) & (names.length - 1);
    }

    private void evictOldest() {
        int slot = slot(length);
        size -= names[slot].length + values[slot].length + ENTRY_OVERHEAD;
        names[slot] = null;
        values[slot] = null;
        length--;
    }

    private void grow() {
        byte[][] newNames = new byte[names.length * 2][];
        byte[][] newValues = new byte[names.length * 2][];
        for (int k = 0; k < length; k++) {
            int slot = slot(length - k);
            newNames[k] = names[slot];
            newValues[k] = values[slot];
        }
        names = newNames;
        values = newValues;
        newest = length - 1;
    }
}
