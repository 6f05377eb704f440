package dev.petrel.http2;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Decodes HPACK field blocks (RFC 7541) for one connection, keeping the dynamic table in step with
 * the peer's encoder across blocks. One owner; blocks are decoded in the order they arrive.
 *
 * <p>Fields go to a {@link FieldSink} as they are decoded; the decoder builds no list, and holds at
 * most one field's decoded bytes in buffers it reuses from block to block. The decoded list's size
 * (RFC 7541 section 4.1: name, value and 32 per field) is counted as it goes, so a block that names
 * one large table entry again and again is caught at the limit, not after building it.
 *
 * <p>The dynamic table starts at 4096 bytes, the initial {@code SETTINGS_HEADER_TABLE_SIZE}
 * (RFC 9113 section 6.5.2), because a peer may send blocks before it has seen our settings; from
 * then on it follows the peer's size updates, which may not exceed the size we advertise.
 */
public final class HpackDecoder {
    /** What {@link #decode} found. */
    public enum Result {
        /** Every field went to the sink. */
        OK,
        /** The list grew beyond the limit; the sink saw only the fields before it. */
        TOO_LARGE
    }

    /** The initial {@code SETTINGS_HEADER_TABLE_SIZE} of RFC 9113 section 6.5.2. */
    static final int INITIAL_TABLE_SIZE = 4096;

    private final int maxTableSize;
    private final long maxHeaderListSize;
    private final HpackDynamicTable table;

    /** Decoded strings land here when they cannot be handed out in place (Huffman, or not a heap buffer). */
    private byte[] nameBuffer = new byte[64];
    private byte[] valueBuffer = new byte[256];

    // The string last read, as array, offset and length: fields rather than an object, so that
    // reading one allocates nothing.
    private byte[] stringBytes;
    private int stringOffset;
    private int stringLength;

    /**
     * A decoder for one connection.
     *
     * @param maxTableSize the {@code SETTINGS_HEADER_TABLE_SIZE} we advertise: the largest dynamic
     *     table size update the peer may send
     * @param maxHeaderListSize the largest decoded list, in RFC 7541 section 4.1 sizes (name +
     *     value + 32 per field), that {@link #decode} passes on whole
     */
    public HpackDecoder(int maxTableSize, int maxHeaderListSize) {
        this(maxTableSize, maxHeaderListSize, INITIAL_TABLE_SIZE);
    }

    /** A decoder whose table starts at {@code initialTableSize}, as the examples of RFC 7541 Appendix C assume. */
    HpackDecoder(int maxTableSize, int maxHeaderListSize, int initialTableSize) {
        if (maxTableSize < 0) throw new IllegalArgumentException("maxTableSize < 0");
        if (maxHeaderListSize < 0) throw new IllegalArgumentException("maxHeaderListSize < 0");
        this.maxTableSize = maxTableSize;
        this.maxHeaderListSize = maxHeaderListSize;
        this.table = new HpackDynamicTable(initialTableSize);
    }

    /**
     * Decodes one complete field block (all HEADERS and CONTINUATION fragments joined), from the
     * position to the limit of {@code block}, calling {@code sink} for each field in order. The
     * block's position ends at its limit, or where an error was found.
     *
     * @return {@link Result#OK}, or {@link Result#TOO_LARGE} when the decoded list exceeded
     *     {@code maxHeaderListSize}: decoding then went on to the end of the block without calling
     *     the sink any more, so the dynamic table stays in step with the peer's encoder (RFC 9113
     *     section 10.5.1 lets the server answer 431 on that stream and keep the connection)
     * @throws HpackException for any decoding error, a connection error of type
     *     {@code COMPRESSION_ERROR}
     */
    public Result decode(ByteBuffer block, FieldSink sink) throws HpackException {
        boolean fieldSeen = false;
        long listSize = 0;
        boolean tooLarge = false;
        while (block.hasRemaining()) {
            int first = block.get() & 0xFF;
            byte[] name;
            byte[] value;
            int valueOffset;
            int valueLength;
            if (first >= 0x80) { // indexed field (section 6.1)
                int index = HpackInteger.decode(block, first & 0x7F, 7);
                name = tableName(index);
                value = tableValue(index);
                valueOffset = 0;
                valueLength = value.length;
                listSize += name.length + valueLength + HpackDynamicTable.ENTRY_OVERHEAD;
                if (listSize > maxHeaderListSize) tooLarge = true;
                if (!tooLarge) sink.field(name, 0, name.length, value, 0, valueLength);
            } else if (first >= 0x40 || first < 0x20) { // literals (sections 6.2.1, 6.2.2, 6.2.3)
                boolean indexing = first >= 0x40;
                int nameIndex = indexing
                        ? HpackInteger.decode(block, first & 0x3F, 6)
                        : HpackInteger.decode(block, first & 0x0F, 4);
                int nameOffset;
                int nameLength;
                if (nameIndex == 0) {
                    nameBuffer = readString(block, nameBuffer);
                    name = stringBytes;
                    nameOffset = stringOffset;
                    nameLength = stringLength;
                } else {
                    name = tableName(nameIndex);
                    nameOffset = 0;
                    nameLength = name.length;
                }
                valueBuffer = readString(block, valueBuffer);
                value = stringBytes;
                valueOffset = stringOffset;
                valueLength = stringLength;
                listSize += (long) nameLength + valueLength + HpackDynamicTable.ENTRY_OVERHEAD;
                if (listSize > maxHeaderListSize) tooLarge = true;
                if (!tooLarge) sink.field(name, nameOffset, nameLength, value, valueOffset, valueLength);
                if (indexing) {
                    // The table keeps arrays of its own: the ones read here are reused or the block's.
                    // A name from a table entry is shared as it is, since entries never change.
                    byte[] entryName = nameIndex != 0 ? name : Arrays.copyOfRange(name, nameOffset, nameOffset + nameLength);
                    table.add(entryName, Arrays.copyOfRange(value, valueOffset, valueOffset + valueLength));
                }
            } else { // dynamic table size update (section 6.3)
                // Only at the beginning of a block (section 4.2): a decoder that let one through
                // later would evict entries the fields before it were meant to be read against.
                if (fieldSeen) throw new HpackException("HPACK table size update after a field");
                int size = HpackInteger.decode(block, first & 0x1F, 5);
                if (size > maxTableSize) throw new HpackException("HPACK table size update above the advertised size");
                table.setMaxSize(size);
                continue;
            }
            fieldSeen = true;
        }
        return tooLarge ? Result.TOO_LARGE : Result.OK;
    }

    /** The dynamic table's current size in RFC 7541 section 4.1 terms. */
    public int dynamicTableSize() {
        return table.size();
    }

    /** The dynamic table, for tests. */
    HpackDynamicTable table() {
        return table;
    }

    private byte[] tableName(int index) throws HpackException {
        checkIndex(index);
        return index <= HpackStaticTable.LENGTH ? HpackStaticTable.name(index) : table.name(index - HpackStaticTable.LENGTH);
    }

    private byte[] tableValue(int index) {
        return index <= HpackStaticTable.LENGTH ? HpackStaticTable.value(index) : table.value(index - HpackStaticTable.LENGTH);
    }

    private void checkIndex(int index) throws HpackException {
        if (index == 0) throw new HpackException("HPACK index 0");
        if (index > HpackStaticTable.LENGTH + table.length()) throw new HpackException("HPACK index beyond the tables");
    }

    /**
     * Reads a string literal (section 5.2) into {@code stringBytes}, {@code stringOffset} and
     * {@code stringLength}: in place when it is plain and the block is a heap buffer, else decoded
     * or copied into {@code buffer}. Returns the buffer, grown if it had to be.
     */
    private byte[] readString(ByteBuffer block, byte[] buffer) throws HpackException {
        if (!block.hasRemaining()) throw new HpackException("HPACK string truncated");
        int first = block.get() & 0xFF;
        int length = HpackInteger.decode(block, first & 0x7F, 7);
        if (length > block.remaining()) throw new HpackException("HPACK string longer than the block");
        if ((first & 0x80) != 0) {
            int room = Huffman.maxDecodedLength(length);
            if (buffer.length < room) buffer = new byte[Math.max(room, buffer.length * 2)];
            stringLength = Huffman.decode(block, length, buffer);
            stringBytes = buffer;
            stringOffset = 0;
        } else if (block.hasArray()) {
            stringBytes = block.array();
            stringOffset = block.arrayOffset() + block.position();
            stringLength = length;
            block.position(block.position() + length);
        } else {
            if (buffer.length < length) buffer = new byte[Math.max(length, buffer.length * 2)];
            block.get(buffer, 0, length);
            stringBytes = buffer;
            stringOffset = 0;
            stringLength = length;
        }
        return buffer;
    }
}
