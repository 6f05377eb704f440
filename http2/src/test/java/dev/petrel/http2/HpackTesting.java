package dev.petrel.http2;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Helpers for the HPACK tests: hex dumps as in RFC 7541 Appendix C, and a sink that keeps what it is given. */
final class HpackTesting {
    private HpackTesting() {}

    /** A field as text, each byte one char (Latin-1). */
    record Field(String name, String value) {
        byte[] nameBytes() {
            return name.getBytes(StandardCharsets.ISO_8859_1);
        }

        byte[] valueBytes() {
            return value.getBytes(StandardCharsets.ISO_8859_1);
        }

        @Override
        public String toString() {
            return name + ": " + value;
        }
    }

    static Field field(String name, String value) {
        return new Field(name, value);
    }

    /** Bytes from a hex dump; spaces and line breaks are ignored. */
    static byte[] hex(String dump) {
        return HexFormat.of().parseHex(dump.replaceAll("\\s", ""));
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    static String latin1(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    static byte[] latin1(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A sink keeping copies of the fields it sees. */
    static final class Collecting implements FieldSink {
        final List<Field> fields = new ArrayList<>();

        @Override
        public void field(byte[] name, int nameOffset, int nameLength, byte[] value, int valueOffset, int valueLength) {
            fields.add(new Field(
                    new String(name, nameOffset, nameLength, StandardCharsets.ISO_8859_1),
                    new String(value, valueOffset, valueLength, StandardCharsets.ISO_8859_1)));
        }
    }

    /** What decoding one block gave. */
    record Decoded(HpackDecoder.Result result, List<Field> fields) {}

    /** Decodes {@code block} from a heap buffer. */
    static Decoded decode(HpackDecoder decoder, byte[] block) throws HpackException {
        Collecting sink = new Collecting();
        HpackDecoder.Result result = decoder.decode(ByteBuffer.wrap(block), sink);
        return new Decoded(result, sink.fields);
    }

    /** Decodes {@code block} from a direct buffer, so that no string can be handed out in place. */
    static Decoded decodeDirect(HpackDecoder decoder, byte[] block) throws HpackException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(block.length);
        buffer.put(block).flip();
        Collecting sink = new Collecting();
        HpackDecoder.Result result = decoder.decode(buffer, sink);
        return new Decoded(result, sink.fields);
    }

    /** The dynamic table's entries, newest first. */
    static List<Field> entries(HpackDynamicTable table) {
        List<Field> entries = new ArrayList<>();
        for (int i = 1; i <= table.length(); i++) entries.add(new Field(latin1(table.name(i)), latin1(table.value(i))));
        return entries;
    }
}
