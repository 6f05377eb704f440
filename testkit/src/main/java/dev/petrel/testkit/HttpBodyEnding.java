package dev.petrel.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * How an HTTP/1.1 response body ended, as its client sees it: whole by its framing (the last
 * chunk and the trailer section's end, the declared length, or an orderly end of a body delimited
 * by the connection's end) or cut (the connection ended first, or was reset). Read from the
 * client's stream after the head, stopping at the framing's end, so that a kept-alive connection
 * is not waited on. The chunked framing is parsed here on its own, not by Petrel's codec, so that
 * the tests' judge of Petrel's output is not Petrel.
 *
 * @param complete whether the body ended whole
 * @param bodyBytes the body bytes received (the chunks' data, for a chunked body)
 * @param how what the client saw at the end, for a failure message
 */
public record HttpBodyEnding(boolean complete, long bodyBytes, String how) {
    /** The end of input: -1 for an orderly end of stream; a reset (or a TLS alert) is an {@link IOException}. */
    private static final class Ended extends Exception {
        private final boolean reset;

        Ended(boolean reset) {
            super(null, null, false, false);
            this.reset = reset;
        }
    }

    /**
     * Reads a body framed as its head said: {@code chunked}, else of {@code length} bytes, else
     * (length -1) delimited by the end of the connection.
     *
     * @throws SocketTimeoutException when the body neither goes on nor ends within the stream's timeout
     */
    public static HttpBodyEnding read(InputStream in, boolean chunked, long length) throws IOException {
        String framing = chunked ? "chunked" : length >= 0 ? "of length " + length : "delimited by close";
        Counter counter = new Counter(in);
        try {
            if (chunked) {
                readChunks(counter);
                return new HttpBodyEnding(true, counter.body, "the last chunk after " + counter.body + " bytes");
            }
            byte[] buffer = new byte[16 * 1024];
            while (length < 0 || counter.body < length) {
                int wanted = length < 0 ? buffer.length : (int) Math.min(buffer.length, length - counter.body);
                counter.body += counter.read(buffer, wanted);
            }
            return new HttpBodyEnding(true, counter.body, "all " + length + " bytes");
        } catch (Ended e) {
            String how = (e.reset ? "a reset" : "the end of the connection") + " after " + counter.body + " bytes of a body " + framing;
            return new HttpBodyEnding(!chunked && length < 0 && !e.reset, counter.body, how);
        }
    }

    /** Chunks to the last one, then the trailer section to its empty line (RFC 9112 section 7.1). */
    private static void readChunks(Counter in) throws IOException, Ended {
        while (true) {
            String sizeLine = in.line();
            int semicolon = sizeLine.indexOf(';');
            long size;
            try {
                size = Long.parseLong((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).strip(), 16);
            } catch (NumberFormatException e) {
                throw new IOException("not a chunk-size line: '" + sizeLine + "'");
            }
            if (size == 0) break;
            byte[] buffer = new byte[16 * 1024];
            for (long left = size; left > 0; ) {
                int n = in.read(buffer, (int) Math.min(buffer.length, left));
                left -= n;
                in.body += n;
            }
            if (!in.line().isEmpty()) throw new IOException("chunk data not followed by CRLF");
        }
        while (!in.line().isEmpty()) {
            // a trailer field
        }
    }

    /** The client's stream, read with the end of input as {@link Ended}. */
    private static final class Counter {
        private final InputStream in;
        long body;

        Counter(InputStream in) {
            this.in = in;
        }

        int read(byte[] buffer, int len) throws IOException, Ended {
            int n;
            try {
                n = in.read(buffer, 0, len);
            } catch (SocketTimeoutException e) {
                throw e;
            } catch (IOException e) {
                throw new Ended(true);
            }
            if (n < 0) throw new Ended(false);
            return n;
        }

        /** A line to its CRLF, without it. */
        String line() throws IOException, Ended {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            byte[] one = new byte[1];
            while (true) {
                read(one, 1);
                if (one[0] == '\n') {
                    byte[] bytes = line.toByteArray();
                    int end = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                    return new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
                }
                line.write(one[0]);
            }
        }
    }
}
