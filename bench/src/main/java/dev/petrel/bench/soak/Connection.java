package dev.petrel.bench.soak;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One connection of a fault: the TCP socket, and the socket its bytes go through (the same one, or
 * TLS layered over it). Ending it three ways is the point of most faults: a reset, a FIN on the
 * TCP socket alone (which over TLS is a truncation: no {@code close_notify}), or a plain close.
 *
 * @param tcp the TCP connection
 * @param stream where requests are written and answers read: {@code tcp}, or TLS over it
 */
record Connection(Socket tcp, Socket stream) implements AutoCloseable {
    InputStream in() throws IOException {
        return stream.getInputStream();
    }

    OutputStream out() throws IOException {
        return stream.getOutputStream();
    }

    /** Writes {@code bytes} and flushes them. */
    void send(byte[] bytes) throws IOException {
        OutputStream out = out();
        out.write(bytes);
        out.flush();
    }

    /** Writes {@code text} in US-ASCII (a request head) and flushes it. */
    void send(String text) throws IOException {
        send(text.getBytes(StandardCharsets.US_ASCII));
    }

    /** Sets how long each read may wait. */
    void readTimeout(int millis) throws IOException {
        tcp.setSoTimeout(millis);
    }

    /** Ends the connection with a TCP reset, without a TLS {@code close_notify}: the client vanished. */
    void reset() {
        FaultSockets.reset(tcp);
        closeQuietly(stream);
    }

    /** Ends what the client sends with a FIN on the TCP connection, and goes on reading. */
    void finishOutput() throws IOException {
        tcp.shutdownOutput();
    }

    /** A plain close: a {@code close_notify} first on TLS, then a FIN. */
    @Override
    public void close() {
        closeQuietly(stream);
        closeQuietly(tcp);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // the peer is gone already: the close has nothing left to do
        }
    }
}
