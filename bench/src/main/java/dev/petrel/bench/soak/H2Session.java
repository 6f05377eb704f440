package dev.petrel.bench.soak;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;

/**
 * An h2c connection of a fault, by prior knowledge on the plain port: the fault writes its frames
 * while an {@link H2ReplyReader} reads the server's on a virtual thread of its own from the start.
 * Reading all along matters: a server whose answers nobody reads stops reading in turn, and the
 * fault's writes would then block until the injector's bound instead of showing what the server
 * does about them.
 */
final class H2Session implements AutoCloseable {
    /** Short, so that the reader looks at its deadline often; a timeout loses nothing (see {@link H2ReplyReader}). */
    private static final int READ_TICK_MILLIS = 100;
    /** How long the reader's thread may take to notice it must stop, once its socket is reset. */
    private static final long STOP_GRACE_MILLIS = 1_000;

    private final Socket socket;
    private final OutputStream out;
    private final H2ReplyReader reader;
    private final Thread readerThread;
    private long written;

    H2Session(FaultSockets sockets, Listener target) throws IOException {
        socket = sockets.tcp(target.port(), READ_TICK_MILLIS);
        out = socket.getOutputStream();
        reader = new H2ReplyReader(socket);
        readerThread = Thread.ofVirtual().name("soak-h2-fault-reader").start(reader);
    }

    /** Sends {@code bytes} at once. */
    void write(byte[] bytes) throws IOException {
        out.write(bytes);
        written += bytes.length;
    }

    /** Bytes sent so far. */
    long written() {
        return written;
    }

    /** Whether the server has said it is done: a GOAWAY, an EOF or a reset. The fault stops sending then. */
    boolean serverDone() {
        return reader.serverDone();
    }

    /** Reads what the server still sends, until EOF or {@code millis}; then says what came back in all. */
    String finish(long millis) throws InterruptedException {
        reader.stopWithin(millis);
        readerThread.join(millis + STOP_GRACE_MILLIS);
        return reader.toString();
    }

    /** Resets the connection and waits for the reader to stop. */
    @Override
    public void close() {
        FaultSockets.reset(socket);
        try {
            readerThread.join(STOP_GRACE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the reader ends anyway: its socket is closed
        }
    }
}
