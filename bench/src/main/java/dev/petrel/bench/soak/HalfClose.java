package dev.petrel.bench.soak;

import java.io.IOException;

/**
 * {@link FaultKind#HALF_CLOSE}: a client that ends its stream (a FIN) as soon as it has asked, or
 * before asking anything. TCP lets a client half-close and still read: the server owes the answer
 * to the request it got, then closes its side too; with no request it just closes. Clear-text
 * listeners only: over TLS a FIN without {@code close_notify} is a truncation, not a half-close.
 *
 * @param withRequest true: a whole {@code GET /ping}, then the FIN; false: the FIN alone, at once
 */
record HalfClose(boolean withRequest) implements Fault {
    private static final int ANSWER_LIMIT_MILLIS = 5_000;
    private static final int EMPTY_LIMIT_MILLIS = 3_000;
    private static final int ANSWER_MAX_BYTES = 64 * 1024;

    @Override
    public void run(Listener target, FaultSockets sockets, Transcript transcript) throws IOException {
        try (Connection connection = sockets.http1(target, ANSWER_LIMIT_MILLIS)) {
            if (withRequest) connection.send(RequestHeads.get(target, "/ping"));
            connection.finishOutput();
            transcript.note(withRequest ? "GET /ping, then FIN at once" : "FIN right after connecting, no request");
            Reply reply = Reply.read(connection, withRequest ? ANSWER_LIMIT_MILLIS : EMPTY_LIMIT_MILLIS, ANSWER_MAX_BYTES);
            transcript.note("answer: " + reply);
        }
    }
}
