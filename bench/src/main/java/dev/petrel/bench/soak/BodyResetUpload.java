package dev.petrel.bench.soak;

import java.io.IOException;

/**
 * {@link FaultKind#BODY_RESET_UPLOAD}: an upload that vanishes partway through its body. The head
 * is a good one (the length and digest of a whole body); only part of the body follows, then,
 * after a short pause that lets the server's handler get into the body, a TCP reset.
 *
 * @param sentBytes how much of the announced body is sent
 * @param pauseMillis the wait between the last byte and the reset
 * @param bodySeed the seed of the body's bytes
 */
record BodyResetUpload(int sentBytes, int pauseMillis, long bodySeed) implements Fault {
    /** The body announced: far more than is sent. */
    static final int ANNOUNCED = 1_000_000;
    private static final int READ_TIMEOUT_MILLIS = 5_000;

    @Override
    public void run(Listener target, FaultSockets sockets, Transcript transcript) throws IOException, InterruptedException {
        byte[] body = SoakContent.bytes(bodySeed, ANNOUNCED);
        try (Connection connection = sockets.http1(target, READ_TIMEOUT_MILLIS)) {
            connection.send(RequestHeads.upload(target, ANNOUNCED, SoakContent.sha256(body)));
            connection.out().write(body, 0, sentBytes);
            connection.out().flush();
            transcript.note("POST /upload announcing " + ANNOUNCED + " bytes, sent " + sentBytes);
            Thread.sleep(pauseMillis);
            // an answer before the body is whole would be news: the handler reads it all before answering
            int waiting = connection.in().available();
            connection.reset();
            transcript.note((waiting > 0 ? waiting + " bytes of answer already there" : "no answer") + ", reset after " + pauseMillis + " ms");
        }
    }
}
