package dev.petrel.server.http2;

import dev.petrel.http2.Frames;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.SelectionStep;
import dev.petrel.server.engine.connection.Timeouts;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * HTTP/2 with prior knowledge on a plain port ({@code h2c}, RFC 9113 section 3.3): a step of the
 * selection chain that reads the connection's first bytes and tells the client preface
 * ({@code PRI * HTTP/2.0...}) from an HTTP/1.1 request, usually at the first byte. It hands on the
 * same connection with those bytes to read again ({@link PrefaceReplay}), named {@code h2c} when
 * they were the preface. It reads what has arrived in one go (a whole small request), so the
 * HTTP/1.1 engine after it reads no more often than without it. On an event loop it runs on the
 * loop and spends no thread while the client is slow to send.
 */
public final class PriorKnowledgeStep implements SelectionStep {
    /** Bytes read while looking: an HTTP/1.1 request head of ordinary size arrives whole. */
    private static final int LOOK_BYTES = 4096;
    private static final int PREFACE_LENGTH = Frames.clientPreface().length;

    private final long timeoutNanos;

    /** Waits up to {@code timeout} (the header timeout) for enough bytes to tell. */
    public PriorKnowledgeStep(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
    }

    /** The ALPN-style name the chain should map to HTTP/2 for connections this step recognises. */
    public static String protocolName() {
        return PrefaceReplay.H2C;
    }

    @Override
    public Endpoint apply(Endpoint endpoint) throws IOException {
        ByteBuffer seen = ByteBuffer.allocate(LOOK_BYTES);
        long deadline = System.nanoTime() + timeoutNanos;
        while (true) {
            Decision decision = decide(seen);
            if (decision != Decision.UNDECIDED) return replay(endpoint, seen, decision);
            long left = deadline - System.nanoTime();
            if (left <= 0) throw new SocketTimeoutException("no request within the header timeout");
            if (endpoint.read(seen, Timeouts.millis(left)) < 0) return replay(endpoint, seen, Decision.HTTP1);
        }
    }

    @Override
    public boolean runsOnLoop() {
        return true;
    }

    @Override
    public OnLoop startOnLoop(Endpoint endpoint) {
        long deadline = System.nanoTime() + timeoutNanos;
        ByteBuffer seen = ByteBuffer.allocate(LOOK_BYTES);
        return new OnLoop() {
            private Endpoint done;

            @Override
            public Progress advance() throws IOException {
                while (done == null) {
                    Decision decision = decide(seen);
                    if (decision != Decision.UNDECIDED) {
                        done = replay(endpoint, seen, decision);
                        break;
                    }
                    int n = endpoint.readAvailable(seen);
                    if (n < 0) {
                        done = replay(endpoint, seen, Decision.HTTP1); // the HTTP/1.1 engine meets the end
                        break;
                    }
                    if (n == 0) {
                        if (System.nanoTime() - deadline >= 0) throw new SocketTimeoutException("no request within the header timeout");
                        return Progress.NEEDS_INPUT;
                    }
                }
                return Progress.DONE;
            }

            @Override
            public long deadline() {
                return deadline;
            }

            @Override
            public Endpoint endpoint() {
                return done;
            }

            @Override
            public void abandon() {
                // nothing held but a buffer
            }

            @Override
            public Endpoint finish() throws IOException {
                return done != null ? done : apply(new PrefaceReplay(endpoint, seen.flip(), false));
            }
        };
    }

    private enum Decision { UNDECIDED, HTTP1, HTTP2 }

    /** What the bytes so far (write mode: from 0 to position) say. */
    private static Decision decide(ByteBuffer seen) {
        int length = seen.position();
        if (length == 0) return Decision.UNDECIDED;
        int matched = Frames.prefaceMatch(seen.duplicate().flip());
        if (matched < Math.min(length, PREFACE_LENGTH)) return Decision.HTTP1;
        return matched == PREFACE_LENGTH ? Decision.HTTP2 : Decision.UNDECIDED;
    }

    private static Endpoint replay(Endpoint endpoint, ByteBuffer seen, Decision decision) {
        return new PrefaceReplay(endpoint, seen.flip(), decision == Decision.HTTP2);
    }
}
