package dev.petrel.http2;

import dev.petrel.http.ByteSink;
import java.nio.charset.StandardCharsets;

/**
 * Encodes HPACK field blocks (RFC 7541) for one connection: the response heads a server sends.
 * One owner; blocks are encoded in the order they are sent.
 *
 * <p>Kept simple: a field in the static or dynamic table is sent as its index; any other is a
 * literal, with the name's index when a table has the name, added to the dynamic table unless its
 * entry would take more than half of the table (a large value would evict everything else for a
 * field that rarely repeats). A field marked sensitive is a never-indexed literal (section 6.2.3).
 * A string is Huffman-coded only when that makes it shorter.
 */
public final class HpackEncoder {
    private final int maxTableSize;
    private final HpackDynamicTable table;

    /** The smallest and the last size since the last block, or -1 when no update is pending (section 4.2). */
    private int pendingSmallest = -1;
    private int pendingLast = -1;

    private final byte[] statusDigits = new byte[3];

    /** Whether strings may be Huffman-coded; off only in tests that reproduce RFC 7541 Appendix C.3 and C.5. */
    private boolean huffman = true;

    /**
     * A new encoder. The peer's {@code SETTINGS_HEADER_TABLE_SIZE} starts at 4096 (RFC 9113
     * section 6.5.2).
     *
     * @param maxTableSize how much of the peer's table this encoder chooses to use, e.g. 4096; when
     *     it is less than the peer's setting, the first block says so with a size update
     */
    public HpackEncoder(int maxTableSize) {
        this(maxTableSize, HpackDecoder.INITIAL_TABLE_SIZE);
    }

    /** An encoder whose peer's setting is already {@code peerTableSize}, as the examples of RFC 7541 Appendix C assume. */
    HpackEncoder(int maxTableSize, int peerTableSize) {
        if (maxTableSize < 0) throw new IllegalArgumentException("maxTableSize < 0");
        this.maxTableSize = maxTableSize;
        this.table = new HpackDynamicTable(peerTableSize);
        if (maxTableSize < peerTableSize) peerTableSizeSetting(peerTableSize);
    }

    /**
     * The peer's {@code SETTINGS_HEADER_TABLE_SIZE} changed to {@code value}: the encoder will use
     * {@code min(value, maxTableSize)}, and the next block starts with the dynamic table size
     * updates RFC 7541 section 4.2 requires: the smallest size since the last block, then the
     * final one if it differs.
     */
    public void peerTableSizeSetting(long value) {
        if (value < 0) throw new IllegalArgumentException("negative table size");
        int size = (int) Math.min(value, maxTableSize);
        pendingSmallest = pendingSmallest < 0 ? size : Math.min(pendingSmallest, size);
        pendingLast = size;
    }

    /** Starts a field block: writes a pending table size update into {@code out}, if any. */
    public void beginBlock(ByteSink out) {
        if (pendingSmallest < 0) return;
        // Going down evicts, and the peer's decoder must evict the same entries at the same point,
        // so the smallest size comes first even when the final one is larger again.
        if (pendingSmallest < table.maxSize()) sizeUpdate(out, pendingSmallest);
        if (pendingLast != table.maxSize()) sizeUpdate(out, pendingLast);
        pendingSmallest = -1;
        pendingLast = -1;
    }

    /**
     * Encodes one field. Names are lower-case bytes, as HTTP/2 requires (the caller sees to it).
     * The arrays are not kept: an entry added to the dynamic table is a copy.
     *
     * @param sensitive send it as a never-indexed literal (RFC 7541 section 6.2.3), so that no
     *     table and no intermediary's re-encoding keeps it, e.g. for an authorization or
     *     set-cookie value the caller chooses
     */
    public void field(ByteSink out, byte[] name, byte[] value, boolean sensitive) {
        int staticName = HpackStaticTable.nameIndex(name, 0, name.length);
        if (!sensitive) {
            int index = staticName == 0 ? 0 : HpackStaticTable.fieldIndex(staticName, value, 0, value.length);
            if (index == 0) {
                int dynamic = table.indexOf(name, value);
                if (dynamic != 0) index = HpackStaticTable.LENGTH + dynamic;
            }
            if (index != 0) {
                HpackInteger.encode(out, 0x80, 7, index);
                return;
            }
        }
        int nameIndex = staticName;
        if (nameIndex == 0) {
            int dynamic = table.nameIndexOf(name);
            if (dynamic != 0) nameIndex = HpackStaticTable.LENGTH + dynamic;
        }
        long entrySize = (long) name.length + value.length + HpackDynamicTable.ENTRY_OVERHEAD;
        boolean indexing = !sensitive && entrySize <= table.maxSize() / 2;
        if (sensitive) {
            HpackInteger.encode(out, 0x10, 4, nameIndex); // never indexed (section 6.2.3)
        } else if (indexing) {
            HpackInteger.encode(out, 0x40, 6, nameIndex); // incremental indexing (section 6.2.1)
        } else {
            HpackInteger.encode(out, 0x00, 4, nameIndex); // without indexing (section 6.2.2)
        }
        if (nameIndex == 0) string(out, name, 0, name.length);
        string(out, value, 0, value.length);
        if (indexing) {
            byte[] entryName = staticName != 0 ? HpackStaticTable.name(staticName) : name.clone();
            table.add(entryName, value.clone());
        }
    }

    /** Encodes one field given as text, each char one byte (Latin-1); a convenience that allocates. */
    public void field(ByteSink out, String name, String value) {
        field(out, name.getBytes(StandardCharsets.ISO_8859_1), value.getBytes(StandardCharsets.ISO_8859_1), false);
    }

    /**
     * Encodes {@code :status}, the first field of a response: the static table's index for 200,
     * 204, 206, 304, 400, 404 and 500, which allocates nothing; any other three-digit status is a
     * literal without indexing that names the static {@code :status} entry.
     */
    public void status(ByteSink out, int status) {
        int index = switch (status) {
            case 200 -> 8;
            case 204 -> 9;
            case 206 -> 10;
            case 304 -> 11;
            case 400 -> 12;
            case 404 -> 13;
            case 500 -> 14;
            default -> 0;
        };
        if (index != 0) {
            out.write(0x80 | index);
            return;
        }
        if (status < 100 || status > 999) throw new IllegalArgumentException("status out of range");
        statusDigits[0] = (byte) ('0' + status / 100);
        statusDigits[1] = (byte) ('0' + status / 10 % 10);
        statusDigits[2] = (byte) ('0' + status % 10);
        HpackInteger.encode(out, 0x00, 4, 8);
        string(out, statusDigits, 0, 3);
    }

    /** The dynamic table's current size in RFC 7541 section 4.1 terms. */
    public int dynamicTableSize() {
        return table.size();
    }

    /** Sends every string as it is, for tests. */
    HpackEncoder withoutHuffman() {
        huffman = false;
        return this;
    }

    /** The dynamic table, for tests. */
    HpackDynamicTable table() {
        return table;
    }

    private void sizeUpdate(ByteSink out, int size) {
        HpackInteger.encode(out, 0x20, 5, size);
        table.setMaxSize(size);
    }

    /** A string literal (section 5.2), Huffman-coded when that is shorter. */
    private void string(ByteSink out, byte[] bytes, int off, int len) {
        long huffmanLength = huffman ? Huffman.encodedLength(bytes, off, len) : Long.MAX_VALUE;
        if (huffmanLength < len) {
            HpackInteger.encode(out, 0x80, 7, (int) huffmanLength);
            Huffman.encode(out, bytes, off, len);
        } else {
            HpackInteger.encode(out, 0x00, 7, len);
            out.write(bytes, off, len);
        }
    }
}
