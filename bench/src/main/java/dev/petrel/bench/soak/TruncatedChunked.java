package dev.petrel.bench.soak;

import java.io.IOException;

/**
 * {@link FaultKind#TRUNCATED_CHUNKED}: a chunked upload whose client stops partway through a chunk
 * and ends its stream, then waits for the verdict. The chunk size line announces more than
 * follows; the FIN goes out on the TCP connection alone, so that over TLS the stream ends without a
 * {@code close_notify}: a truncation, which the server must not take for the end of the body.
 *
 * @param announcedBytes the size the chunk's size line announces
 * @param sentBytes how much of the chunk is sent (fewer)
 * @param bodySeed the seed of the chunk's bytes
 */
record TruncatedChunked(int announcedBytes, int sentBytes, long bodySeed) implements Fault {
    private static final int ANSWER_LIMIT_MILLIS = 5_000;
    private static final int ANSWER_MAX_BYTES = 64 * 1024;

    @Override
    public void run(Listener target, FaultSockets sockets, Transcript transcript) throws IOException {
        byte[] chunk = SoakContent.bytes(bodySeed, announcedBytes);
        try (Connection connection = sockets.http1(target, ANSWER_LIMIT_MILLIS)) {
            connection.send(RequestHeads.chunkedUpload(target, SoakContent.sha256(chunk)));
            connection.send(Integer.toHexString(announcedBytes) + "\r\n");
            connection.out().write(chunk, 0, sentBytes);
            connection.out().flush();
            connection.finishOutput();
            transcript.note("POST /upload chunked, a chunk of " + announcedBytes + " announced, " + sentBytes + " sent, then FIN"
                    + (target.tls() ? " (no close_notify)" : ""));
            transcript.note("answer: " + Reply.read(connection, ANSWER_LIMIT_MILLIS, ANSWER_MAX_BYTES));
        }
    }
}
