package dev.petrel.http;

/**
 * Builds {@link HeaderFields} from field lines that arrive already split into name and value, as
 * in a binary protocol (AJP/1.3) rather than text. The bytes are copied into storage kept for the
 * next message, so a connection that reuses its builder stops allocating once it has seen its
 * largest head. Handlers only ever see the read-only {@link HeaderFields}. Values are kept as
 * given: the caller trims them if its protocol does not (AJP front ends send them trimmed).
 */
public final class HeaderFieldsBuilder {
    private final ByteStore store;
    private final HeaderFields fields;

    /** A builder whose storage starts at {@code initialCapacity} bytes and grows on demand. */
    public HeaderFieldsBuilder(int initialCapacity) {
        this.store = new ByteStore(Math.max(16, initialCapacity));
        this.fields = new HeaderFields(store);
    }

    /** Forgets every field line, for the next message; the {@link #fields()} view empties too. */
    public void clear() {
        store.clear();
        fields.clear();
    }

    /** Adds a field line whose name and value lie in {@code src}. */
    public void add(byte[] src, int nameOffset, int nameLength, int valueOffset, int valueLength) {
        int nameStart = store.length();
        store.append(src, nameOffset, nameLength);
        int valueStart = store.length();
        store.append(src, valueOffset, valueLength);
        fields.add(nameStart, nameLength, valueStart, valueLength);
    }

    /** Adds a field line whose name and value lie in two arrays, as an HPACK decoder hands them over. */
    public void add(byte[] nameSrc, int nameOffset, int nameLength, byte[] valueSrc, int valueOffset, int valueLength) {
        int nameStart = store.length();
        store.append(nameSrc, nameOffset, nameLength);
        int valueStart = store.length();
        store.append(valueSrc, valueOffset, valueLength);
        fields.add(nameStart, nameLength, valueStart, valueLength);
    }

    /** Adds a field line with a name known in advance (an encoded header code) and a value in {@code src}. */
    public void add(byte[] name, byte[] src, int valueOffset, int valueLength) {
        int nameStart = store.length();
        store.append(name, 0, name.length);
        int valueStart = store.length();
        store.append(src, valueOffset, valueLength);
        fields.add(nameStart, name.length, valueStart, valueLength);
    }

    /** The field lines added since the last {@link #clear()}; a live view, valid until then. */
    public HeaderFields fields() {
        return fields;
    }
}
