package dev.petrel.http;

import java.nio.ByteBuffer;

/**
 * Decodes a chunked request body (RFC 9112 section 7.1), pushed in pieces of any size.
 *
 * <p>{@link #decode(ByteBuffer, ByteBuffer)} moves body bytes from {@code in} to {@code out} and
 * answers {@link ParseStatus#NEED_MORE} when {@code in} is exhausted or {@code out} is full,
 * {@link ParseStatus#COMPLETE} once the last chunk and the trailer section are consumed ({@code in}
 * is then positioned at the next request), or {@link ParseStatus#ERROR}.
 *
 * <p>Strict: the size is 1*HEXDIG and nothing else (no sign, no {@code 0x}, no leading space),
 * every line ends in CRLF, data is followed by CRLF, extensions hold no control characters and
 * the size line is bounded. Sizes add up against {@link HttpLimits#maxBodySize()} (413).
 * Extensions are skipped: they carry nothing a server may rely on.
 */
public final class ChunkedDecoder {
    private enum State { SIZE, SIZE_WHITESPACE, EXTENSION, SIZE_LF, DATA, DATA_CR, DATA_LF, TRAILERS, COMPLETE, FAILED }

    private final HttpLimits limits;
    private final ByteStore trailerStore = new ByteStore(64);
    private final HeaderFields trailers = new HeaderFields(trailerStore);
    private final FieldSectionParser trailerParser;

    private State state = State.SIZE;
    private int sizeDigits;
    private int lineLength;
    private long chunkSize;
    private long chunkRemaining;
    private long total;
    private HttpError error;

    /** A decoder enforcing {@code limits}. */
    public ChunkedDecoder(HttpLimits limits) {
        this.limits = limits;
        this.trailerParser = new FieldSectionParser(trailerStore, trailers, limits.maxHeaderSectionSize(), limits.maxHeaderCount());
    }

    /** Prepares for the next body. */
    public void reset() {
        state = State.SIZE;
        sizeDigits = 0;
        lineLength = 0;
        chunkSize = 0;
        chunkRemaining = 0;
        total = 0;
        error = null;
        trailerStore.clear();
        trailers.clear();
        trailerParser.reset();
    }

    /** Why the body was rejected, after {@link ParseStatus#ERROR}. */
    public HttpError error() {
        return error;
    }

    /** The trailer fields, after {@link ParseStatus#COMPLETE}. */
    public HeaderFields trailers() {
        return trailers;
    }

    /**
     * What the decoder waits for next, in words, for a message saying where a body was cut short:
     * {@code "the next chunk-size line"}, {@code "the rest of a chunk-size line"}, {@code "chunk data"},
     * {@code "the CRLF after chunk data"} or {@code "the trailer section or the last CRLF"};
     * {@code "nothing"} once complete or failed. A fixed text: it never quotes the input.
     */
    public String expecting() {
        return switch (state) {
            case SIZE, SIZE_WHITESPACE, EXTENSION, SIZE_LF -> sizeDigits == 0 && lineLength == 0 ? "the next chunk-size line" : "the rest of a chunk-size line";
            case DATA -> "chunk data";
            case DATA_CR, DATA_LF -> "the CRLF after chunk data";
            case TRAILERS -> "the trailer section or the last CRLF";
            case COMPLETE, FAILED -> "nothing";
        };
    }

    /** Body bytes decoded so far. */
    public long bodyBytes() {
        return total - chunkRemaining;
    }

    /** Moves decoded body bytes from {@code in} to {@code out}; see the class comment for the result. */
    public ParseStatus decode(ByteBuffer in, ByteBuffer out) {
        while (true) {
            switch (state) {
                case COMPLETE -> { return ParseStatus.COMPLETE; }
                case FAILED -> { return ParseStatus.ERROR; }
                case TRAILERS -> {
                    ParseStatus status = trailerParser.parse(in);
                    if (status == ParseStatus.COMPLETE) state = State.COMPLETE;
                    if (status == ParseStatus.ERROR) {
                        error = trailerParser.error();
                        state = State.FAILED;
                    }
                    return status;
                }
                case DATA -> {
                    if (!in.hasRemaining() || !out.hasRemaining()) return ParseStatus.NEED_MORE;
                    int n = (int) Math.min(chunkRemaining, Math.min(in.remaining(), out.remaining()));
                    int oldLimit = in.limit();
                    in.limit(in.position() + n);
                    out.put(in);
                    in.limit(oldLimit);
                    chunkRemaining -= n;
                    if (chunkRemaining == 0) state = State.DATA_CR;
                }
                default -> {
                    if (!in.hasRemaining()) return ParseStatus.NEED_MORE;
                    ParseStatus status = lineByte(in.get());
                    if (status != null) return status;
                }
            }
        }
    }

    /** Consumes one byte of a size line or of the CRLF after data; returns a status only when decoding must stop. */
    private ParseStatus lineByte(byte b) {
        switch (state) {
            case SIZE -> {
                if (++lineLength > limits.maxChunkLineLength()) return fail(400, "Chunk size line too long");
                int digit = hexValue(b);
                if (digit >= 0) {
                    if (++sizeDigits > 15) return fail(413, "Request body too large");
                    chunkSize = chunkSize * 16 + digit;
                } else if (sizeDigits == 0) {
                    return fail(400, "Invalid chunk size");
                } else if (b == '\r') {
                    state = State.SIZE_LF;
                } else if (b == ';') {
                    state = State.EXTENSION;
                } else if (HttpChars.isOws(b)) {
                    state = State.SIZE_WHITESPACE;
                } else {
                    return fail(400, "Invalid chunk size");
                }
            }
            case SIZE_WHITESPACE -> { // BWS before ";" (RFC 9112 section 7.1.1)
                if (++lineLength > limits.maxChunkLineLength()) return fail(400, "Chunk size line too long");
                if (b == ';') state = State.EXTENSION;
                else if (!HttpChars.isOws(b)) return fail(400, "Invalid chunk size");
            }
            case EXTENSION -> {
                if (++lineLength > limits.maxChunkLineLength()) return fail(400, "Chunk size line too long");
                if (b == '\r') state = State.SIZE_LF;
                else if (!HttpChars.isFieldVchar(b) && !HttpChars.isOws(b)) return fail(400, "Invalid chunk extension");
            }
            case SIZE_LF -> {
                if (b != '\n') return fail(400, "Bare CR in a chunk size line");
                if (chunkSize > limits.maxBodySize() - total) return fail(413, "Request body too large");
                total += chunkSize;
                chunkRemaining = chunkSize;
                state = chunkSize == 0 ? State.TRAILERS : State.DATA;
                sizeDigits = 0;
                lineLength = 0;
                chunkSize = 0;
            }
            case DATA_CR -> {
                if (b != '\r') return fail(400, "Chunk data not followed by CRLF");
                state = State.DATA_LF;
            }
            case DATA_LF -> {
                if (b != '\n') return fail(400, "Chunk data not followed by CRLF");
                state = State.SIZE;
            }
            default -> throw new AssertionError(state);
        }
        return null;
    }

    private static int hexValue(byte b) {
        if (b >= '0' && b <= '9') return b - '0';
        if (b >= 'a' && b <= 'f') return b - 'a' + 10;
        if (b >= 'A' && b <= 'F') return b - 'A' + 10;
        return -1;
    }

    private ParseStatus fail(int status, String reason) {
        error = new HttpError(status, reason);
        state = State.FAILED;
        return ParseStatus.ERROR;
    }
}
