package dev.petrel.bench.soak;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * {@link FaultKind#H2_SETTINGS_FLOOD}: thousands of SETTINGS frames, each owed an ACK, and no ACK
 * read. Each frame carries {@code SETTINGS_ENABLE_PUSH = 0}, a setting any client may send; the
 * frames go out in batches of {@value #FRAMES_PER_WRITE}, until the server closes, all are sent
 * or 5 s pass.
 *
 * @param frames how many SETTINGS frames
 */
record H2SettingsFlood(int frames) implements Fault {
    private static final int FRAMES_PER_WRITE = 500;
    private static final long SEND_LIMIT_MILLIS = 5_000;
    private static final long LINGER_MILLIS = 3_000;

    @Override
    public void run(Listener target, FaultSockets sockets, Transcript transcript) throws IOException, InterruptedException {
        byte[] one = H2Frames.settings(H2Frames.SETTINGS_ENABLE_PUSH, 0);
        ByteArrayOutputStream batch = new ByteArrayOutputStream(one.length * FRAMES_PER_WRITE);
        for (int i = 0; i < FRAMES_PER_WRITE; i++) batch.writeBytes(one);
        byte[] batchBytes = batch.toByteArray();
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(SEND_LIMIT_MILLIS);
        try (H2Session session = new H2Session(sockets, target)) {
            int sent = 0;
            String stopped = "";
            try {
                session.write(H2Frames.PREFACE);
                while (sent < frames && !session.serverDone() && System.nanoTime() < deadline) {
                    int count = Math.min(FRAMES_PER_WRITE, frames - sent);
                    session.write(count == FRAMES_PER_WRITE ? batchBytes : Arrays.copyOf(batchBytes, count * one.length));
                    sent += count;
                }
                if (sent < frames) stopped = session.serverDone() ? ", stopped as the server ended the connection" : ", stopped at 5 s";
            } catch (IOException e) {
                stopped = ", then a write failed: " + Reply.describe(e);
            }
            transcript.note("preface, " + sent + " of " + frames + " SETTINGS frames in "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms" + stopped);
            transcript.note(session.finish(LINGER_MILLIS));
        }
    }
}
