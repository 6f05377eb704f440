package dev.petrel.bench.soak;

import java.io.IOException;

/**
 * {@link FaultKind#BODY_RESET_DOWNLOAD}: a download whose client vanishes partway. The answer of
 * {@code GET /download} is 8 MB; the first tens of KB are read, then a TCP reset, while the server
 * is still writing.
 *
 * @param readBytes how much of the answer (head included) is read before the reset
 */
record BodyResetDownload(int readBytes) implements Fault {
    static final String TARGET = "/download?size=8000000&seed=1";
    private static final int READ_LIMIT_MILLIS = 5_000;

    @Override
    public void run(Listener target, FaultSockets sockets, Transcript transcript) throws IOException {
        try (Connection connection = sockets.http1(target, READ_LIMIT_MILLIS)) {
            connection.send(RequestHeads.get(target, TARGET));
            Reply reply = Reply.read(connection, READ_LIMIT_MILLIS, readBytes);
            connection.reset();
            transcript.note("GET " + TARGET + ": " + reply + ", then reset");
        }
    }
}
