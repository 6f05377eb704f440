package dev.petrel.bench.soak;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * {@link FaultKind#H2_CONTINUATION_FLOOD}: a header block that never ends. A HEADERS frame of
 * {@code GET /ping} without END_HEADERS opens it; CONTINUATION frames of literal header fields
 * with new names follow, never with END_HEADERS, until the server closes, {@value #MAX_BYTES}
 * bytes or 5 s. A server that buffers the block until it ends, or decodes each field into a
 * growing list, runs out of memory; a correct one stops at its header size limit.
 *
 * @param frameBytes the payload of each CONTINUATION frame
 */
record H2ContinuationFlood(int frameBytes) implements Fault {
    static final long MAX_BYTES = 64L << 20;
    private static final long SEND_LIMIT_MILLIS = 5_000;
    private static final long LINGER_MILLIS = 3_000;
    /** Frames per write: writes of about 64 KB, so that each one is a real push on the server. */
    private static final int WRITE_BYTES = 64 * 1024;

    @Override
    public void run(Listener target, FaultSockets sockets, Transcript transcript) throws IOException, InterruptedException {
        Batch batch = batch();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SEND_LIMIT_MILLIS);
        long start = System.nanoTime();
        try (H2Session session = new H2Session(sockets, target)) {
            long frames = 0;
            String stopped;
            try {
                session.write(H2Frames.opening());
                session.write(H2Frames.frame(H2Frames.HEADERS, H2Frames.FLAG_END_STREAM, 1, HpackFields.get("/ping", target.port())));
                while (true) {
                    if (session.serverDone()) {
                        stopped = "stopped as the server ended the connection";
                        break;
                    }
                    if (session.written() >= MAX_BYTES) {
                        stopped = "stopped at " + (MAX_BYTES >> 20) + " MB";
                        break;
                    }
                    if (System.nanoTime() >= deadline) {
                        stopped = "stopped at " + SEND_LIMIT_MILLIS + " ms";
                        break;
                    }
                    session.write(batch.bytes());
                    frames += batch.frames();
                }
            } catch (IOException e) {
                stopped = "a write failed: " + Reply.describe(e);
            }
            transcript.note("preface, SETTINGS, HEADERS without END_HEADERS, " + frames + " CONTINUATION frames of " + frameBytes
                    + " bytes (" + session.written() + " bytes in all) in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
                    + " ms, " + stopped);
            transcript.note(session.finish(LINGER_MILLIS));
        }
    }

    /** About {@value #WRITE_BYTES} bytes of CONTINUATION frames on stream 1, each full of fields with names of their own. */
    private Batch batch() {
        ByteArrayOutputStream batch = new ByteArrayOutputStream(WRITE_BYTES + frameBytes);
        int frames = 0;
        while (frames == 0 || batch.size() + H2Frames.HEADER_BYTES + frameBytes <= WRITE_BYTES) {
            H2Frames.write(batch, H2Frames.CONTINUATION, 0, 1, fields(frames++));
        }
        return new Batch(batch.toByteArray(), frames);
    }

    /** The bytes of one write, and how many frames they are. */
    private record Batch(byte[] bytes, int frames) {}

    /** Up to {@code frameBytes} of literal fields {@code x-flood-F-I: vvv...}: a few bytes short of it at most. */
    private byte[] fields(int frame) {
        ByteArrayOutputStream fields = new ByteArrayOutputStream(frameBytes);
        for (int i = 0; ; i++) {
            String name = "x-flood-" + frame + "-" + i;
            // 1 byte of representation, then name and value each behind a one-byte length (both under 127)
            int room = frameBytes - fields.size() - 3 - name.length();
            if (room < 0) break;
            HpackFields.literal(fields, name, "v".repeat(Math.min(room, 100)));
        }
        return fields.toByteArray();
    }
}
