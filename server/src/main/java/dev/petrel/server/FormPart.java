package dev.petrel.server;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One part of a {@code multipart/form-data} body ({@link MultipartForm}): a form field, or a file
 * with its {@link #filename()}. Its content is in memory up to
 * {@link MultipartForm#MEMORY_THRESHOLD} bytes, beyond that in a temporary file of its own (only
 * its owner may read it), removed when the form is closed or, at the latest, when the exchange
 * ends.
 */
public final class FormPart {
    private final String name;
    private final String filename;
    private final String contentType;
    private final List<Map.Entry<String, String>> headers;
    private final long size;
    private final byte[] memory; // null when on disk
    private Path file;           // null when in memory; where saveTo moved it, after that
    private boolean owned;       // the file is the form's temporary file, to remove at the end

    FormPart(String name, String filename, String contentType, List<Map.Entry<String, String>> headers, long size, byte[] memory,
             Path file) {
        this.name = name;
        this.filename = filename;
        this.contentType = contentType;
        this.headers = headers;
        this.size = size;
        this.memory = memory;
        this.file = file;
        this.owned = file != null;
    }

    /** The {@code name} of its Content-Disposition: the form field's name. */
    public String name() {
        return name;
    }

    /**
     * The {@code filename} the client gave, or {@code null} for a plain field; empty for a file
     * input left empty. It is the client's word: never use it as a path.
     */
    public String filename() {
        return filename;
    }

    /** Whether it is a file ({@code filename} given), rather than a field. */
    public boolean isFile() {
        return filename != null;
    }

    /** Its Content-Type, or {@code null} when the client sent none (then text/plain, RFC 7578). */
    public String contentType() {
        return contentType;
    }

    /** The first value of one of its header fields, or {@code null}; the name is case-insensitive. */
    public String header(String headerName) {
        String lower = headerName.toLowerCase(Locale.ROOT);
        for (Map.Entry<String, String> field : headers) {
            if (field.getKey().equals(lower)) return field.getValue();
        }
        return null;
    }

    /** Every header field of the part, names in lower case, in the order received. */
    public List<Map.Entry<String, String>> headers() {
        return headers;
    }

    /** Its size in bytes. */
    public long size() {
        return size;
    }

    /** Whether its content went to a temporary file (it was larger than {@link MultipartForm#MEMORY_THRESHOLD}). */
    public boolean inFile() {
        return file != null;
    }

    /** Its content, from the start, each call. */
    public synchronized InputStream inputStream() throws IOException {
        return memory != null ? new ByteArrayInputStream(memory) : Files.newInputStream(file);
    }

    /**
     * Its content as bytes.
     *
     * @throws IOException when it is too large for an array, or its file cannot be read
     */
    public synchronized byte[] bytes() throws IOException {
        if (memory != null) return memory.clone();
        if (size > Integer.MAX_VALUE - 8) throw new IOException("a part of " + size + " bytes does not fit an array");
        return Files.readAllBytes(file);
    }

    /** Its content decoded as UTF-8 (what browsers send for a field). */
    public String text() throws IOException {
        return memory != null ? new String(memory, StandardCharsets.UTF_8) : new String(bytes(), StandardCharsets.UTF_8);
    }

    /**
     * Writes its content to {@code target}, replacing a file there: a move when it is in a
     * temporary file on the same file system, so a large upload is not copied; the part reads
     * from {@code target} after that, and it is the caller's to keep.
     */
    public synchronized void saveTo(Path target) throws IOException {
        if (memory != null) {
            Files.write(target, memory);
            return;
        }
        try {
            Files.move(file, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            file = target;
            owned = false;
        } catch (IOException cannotMove) { // another file system
            Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Removes its temporary file, if it still has one. */
    synchronized void delete() {
        if (file == null || !owned) return;
        owned = false;
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            System.getLogger("dev.petrel.server.multipart").log(System.Logger.Level.WARNING,
                    "could not remove the upload's temporary file " + file + ": " + e);
        }
    }

    @Override
    public String toString() {
        return "part " + name + (filename != null ? " (file " + filename + ")" : "") + ", " + size + " bytes";
    }
}
