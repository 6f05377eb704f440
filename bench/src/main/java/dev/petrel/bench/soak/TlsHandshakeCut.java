package dev.petrel.bench.soak;

import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;

/**
 * {@link FaultKind#TLS_HANDSHAKE_CUT}: a handshake the client gives up on. The ClientHello is a
 * real one, the JDK's own (an {@link SSLEngine} in client mode wrapping once), so that the server
 * gets as far into the handshake as a real client would take it; the connection is then reset
 * either partway through the ClientHello, or right after the first bytes of the ServerHello, when
 * the server has already spent its key exchange on it.
 *
 * @param whole true: the whole ClientHello, then the reset once the ServerHello begins; false: part of it, then the reset
 * @param cutFraction where the ClientHello is cut, as a fraction of its length (when not {@code whole})
 * @param pauseMillis the wait before the reset, after a cut ClientHello
 */
record TlsHandshakeCut(boolean whole, double cutFraction, int pauseMillis) implements Fault {
    private static final int ANSWER_LIMIT_MILLIS = 3_000;
    /** A TLS record header: enough to know the ServerHello has begun. */
    private static final int RECORD_HEADER = 5;

    @Override
    public void run(Listener target, FaultSockets sockets, Transcript transcript) throws IOException, InterruptedException {
        byte[] hello = clientHello(target);
        try (Socket socket = sockets.tcp(target.port(), ANSWER_LIMIT_MILLIS)) {
            // TCP only: the bytes of the handshake are the fault's own
            Connection connection = new Connection(socket, socket);
            if (whole) {
                connection.send(hello);
                Reply reply = Reply.read(connection, ANSWER_LIMIT_MILLIS, RECORD_HEADER + 1);
                connection.reset();
                transcript.note("the whole ClientHello (" + hello.length + " bytes); answer: " + TlsRecords.describe(reply.start())
                        + reply.how() + "; then reset");
            } else {
                int cut = 1 + (int) (cutFraction * (hello.length - 1));
                connection.send(Arrays.copyOf(hello, cut));
                Thread.sleep(pauseMillis);
                connection.reset();
                transcript.note(cut + " of the ClientHello's " + hello.length + " bytes, reset after " + pauseMillis + " ms");
            }
        }
    }

    /** The ClientHello the JDK would send to {@code target}: its first TLS record, made by an engine that goes no further. */
    private static byte[] clientHello(Listener target) throws IOException {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, null, null);
            SSLEngine engine = context.createSSLEngine(FaultSockets.HOST, target.port());
            engine.setUseClientMode(true);
            ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
            engine.wrap(ByteBuffer.allocate(0), out);
            out.flip();
            byte[] hello = new byte[out.remaining()];
            out.get(hello);
            return hello;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has TLS", e);
        }
    }
}
