package dev.petrel.server;

import dev.petrel.http.HeaderFields;
import dev.petrel.http.HttpError;
import dev.petrel.http.MultipartLimits;
import dev.petrel.http.MultipartParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A {@code multipart/form-data} body (RFC 7578) read whole: an HTML form with file inputs, or
 * {@code curl -F}. Parts up to {@link #MEMORY_THRESHOLD} bytes stay in memory; a larger one goes to
 * a temporary file of its own as it arrives, so an upload of any size costs a bounded amount of
 * memory. {@link #close()} removes the files; the server closes the form when the exchange ends
 * if the handler did not.
 *
 * <pre>{@code
 * .post("/upload", (req, res) -> {
 *     MultipartForm form = req.multipart();
 *     FormPart file = form.part("file");
 *     file.saveTo(uploads.resolve(UUID.randomUUID().toString()));
 *     res.send("got " + file.size() + " bytes for " + form.text("title"));
 * })
 * }</pre>
 *
 * <p>What is refused, each answered by the {@link HttpStatusException} thrown (the handler lets
 * it go): a body that is not {@code multipart/form-data} or has no valid boundary, {@code 415};
 * a malformed body, or one that ends before its close delimiter, {@code 400}; one past a limit of
 * {@link MultipartLimits} (by default 1,000 parts, a 16 KiB header section per part, 1 GiB per part
 * and 4 GiB in all; the server's own body limit applies too), {@code 413} naming the limit. Nothing
 * is left behind by a refused body: files written before the refusal are removed at once.
 */
public final class MultipartForm implements AutoCloseable {
    /** Parts up to this many bytes are kept in memory; larger ones in a temporary file (64 KiB). */
    public static final int MEMORY_THRESHOLD = 64 * 1024;

    private static final int READ_BYTES = 16 * 1024;

    private final List<FormPart> parts;

    private MultipartForm(List<FormPart> parts) {
        this.parts = List.copyOf(parts);
    }

    /**
     * Reads {@code request}'s body as a form, within {@code limits}.
     *
     * @throws HttpStatusException 415, 400 or 413 (see the class comment)
     * @throws IOException when the body cannot be read (the client went away) or a part cannot be written to disk
     */
    public static MultipartForm read(Request request, MultipartLimits limits) throws IOException {
        String type = request.header("Content-Type");
        String boundary = type == null ? null : MultipartParser.boundary(type);
        if (boundary == null) {
            throw new HttpStatusException(415, "the body is not multipart/form-data with a boundary");
        }
        List<FormPart> parts = new ArrayList<>();
        try {
            readParts(request.body(), new MultipartParser(boundary, limits), parts);
            return new MultipartForm(parts);
        } catch (IOException | RuntimeException | Error e) {
            parts.forEach(FormPart::delete);
            throw e;
        }
    }

    private static void readParts(InputStream body, MultipartParser parser, List<FormPart> parts) throws IOException {
        ByteBuffer in = ByteBuffer.allocate(READ_BYTES).flip();
        ByteBuffer out = ByteBuffer.allocate(READ_BYTES);
        PartWriter current = null;
        try {
            while (true) {
                switch (parser.parse(in, out.clear())) {
                    case NEED_MORE -> {
                        in.compact();
                        if (!in.hasRemaining()) throw new IllegalStateException("the parser asked for more without consuming");
                        int n = body.read(in.array(), in.position(), in.remaining());
                        if (n < 0) throw new HttpStatusException(400, "the multipart body ended before its close delimiter");
                        in.position(in.position() + n).flip();
                    }
                    case PART_HEAD -> current = new PartWriter(parser);
                    case BODY -> current.write(out.flip());
                    case PART_END -> {
                        parts.add(current.finish());
                        current = null;
                    }
                    case COMPLETE -> {
                        body.transferTo(OutputStream.nullOutputStream()); // the epilogue, if any
                        return;
                    }
                    case ERROR -> {
                        HttpError error = parser.error();
                        throw new HttpStatusException(error.status(), error.reason());
                    }
                }
            }
        } finally {
            if (current != null) current.abandon();
        }
    }

    /** Every part, in the order received. */
    public List<FormPart> parts() {
        return parts;
    }

    /** The first part named {@code name}, or {@code null}. */
    public FormPart part(String name) {
        for (FormPart part : parts) {
            if (part.name().equals(name)) return part;
        }
        return null;
    }

    /** Every part named {@code name} (a multiple file input), in order. */
    public List<FormPart> parts(String name) {
        return parts.stream().filter(part -> part.name().equals(name)).toList();
    }

    /** The first field named {@code name} as text (UTF-8), or {@code null}. */
    public String text(String name) throws IOException {
        FormPart part = part(name);
        return part == null ? null : part.text();
    }

    /** Removes the parts' temporary files; the parts in memory stay readable. Idempotent. */
    @Override
    public void close() {
        parts.forEach(FormPart::delete);
    }

    /** One part as it arrives: in memory until it passes the threshold, then in a temporary file. */
    private static final class PartWriter {
        private final String name;
        private final String filename;
        private final String contentType;
        private final List<Map.Entry<String, String>> headers;
        private ByteArrayOutputStream memory = new ByteArrayOutputStream();
        private Path file;
        private OutputStream fileOut;
        private long size;

        PartWriter(MultipartParser parser) {
            this.name = parser.name();
            this.filename = parser.filename();
            this.contentType = parser.contentType();
            HeaderFields fields = parser.partHeaders();
            List<Map.Entry<String, String>> copied = new ArrayList<>(fields.size());
            for (int i = 0; i < fields.size(); i++) copied.add(Map.entry(fields.name(i).toLowerCase(Locale.ROOT), fields.value(i)));
            this.headers = List.copyOf(copied);
        }

        void write(ByteBuffer bytes) throws IOException {
            int n = bytes.remaining();
            if (fileOut == null && size + n > MEMORY_THRESHOLD) spill();
            if (fileOut != null) fileOut.write(bytes.array(), bytes.position(), n);
            else memory.write(bytes.array(), bytes.position(), n);
            size += n;
        }

        private void spill() throws IOException {
            file = Files.createTempFile("petrel-upload-", ".part"); // owner-only on POSIX file systems
            fileOut = Files.newOutputStream(file);
            memory.writeTo(fileOut);
            memory = null;
        }

        FormPart finish() throws IOException {
            if (fileOut != null) fileOut.close();
            FormPart part = new FormPart(name, filename, contentType, headers, size, memory == null ? null : memory.toByteArray(), file);
            file = null; // the part owns it now
            return part;
        }

        /** The body failed inside this part: its file, if any, goes. */
        void abandon() {
            if (file == null) return;
            try {
                if (fileOut != null) fileOut.close();
                Files.deleteIfExists(file);
            } catch (IOException e) {
                System.getLogger("dev.petrel.server.multipart").log(System.Logger.Level.WARNING,
                        "could not remove the upload's temporary file " + file + ": " + e);
            }
        }
    }
}
