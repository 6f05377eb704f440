package dev.petrel.bench.soak;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * The sockets of one fault: each TCP connection opened here, with a connect timeout and a read
 * timeout, and remembered, so that the injector can reset whatever is still open when the fault
 * overruns its bound (a blocked write has no timeout of its own; resetting its socket is the one
 * way to end it) and once the fault is over (a socket a fault forgot is still closed).
 */
final class FaultSockets implements AutoCloseable {
    /** Every fault aims at the server on this machine. */
    static final String HOST = "127.0.0.1";
    /** The longest a connect may take: on loopback only a full accept queue makes one wait. */
    static final int CONNECT_TIMEOUT_MILLIS = 2_000;

    private final SSLSocketFactory tlsFactory;
    private final Set<Socket> opened = ConcurrentHashMap.newKeySet();
    private volatile boolean aborted;

    /** @param tlsFactory makes the TLS connections; trusts any certificate (see {@link TrustingTls}) */
    FaultSockets(SSLSocketFactory tlsFactory) {
        this.tlsFactory = tlsFactory;
    }

    /** A TCP connection to {@code port} on 127.0.0.1 whose reads time out after {@code readTimeoutMillis}. */
    Socket tcp(int port, int readTimeoutMillis) throws IOException {
        Socket socket = new Socket();
        // remembered before it connects, so that an abort during a slow connect ends the connect too
        opened.add(socket);
        if (aborted) {
            reset(socket);
            throw new SocketException("the fault was cut at its bound");
        }
        socket.setSoTimeout(readTimeoutMillis);
        socket.connect(new InetSocketAddress(HOST, port), CONNECT_TIMEOUT_MILLIS);
        return socket;
    }

    /**
     * A non-blocking channel to {@code port} on 127.0.0.1 whose connect has begun (see
     * {@link SocketChannel#connect}): one thread can open many at once and finish them with a
     * selector.
     */
    SocketChannel connecting(int port) throws IOException {
        SocketChannel channel = SocketChannel.open();
        opened.add(channel.socket());
        if (aborted) {
            reset(channel.socket());
            throw new SocketException("the fault was cut at its bound");
        }
        channel.configureBlocking(false);
        channel.connect(new InetSocketAddress(HOST, port));
        return channel;
    }

    /**
     * A connection ready for HTTP/1.1 on {@code listener}: TCP, and on a TLS listener a finished
     * handshake over it ({@code http/1.1} by ALPN), its reads timing out after
     * {@code readTimeoutMillis} (the handshake's too).
     */
    Connection http1(Listener listener, int readTimeoutMillis) throws IOException {
        Socket tcp = tcp(listener.port(), readTimeoutMillis);
        if (!listener.tls()) return new Connection(tcp, tcp);
        try {
            // layered over the TCP socket, so that a reset can go out on it without a close_notify first
            SSLSocket tls = (SSLSocket) tlsFactory.createSocket(tcp, HOST, listener.port(), true);
            tls.setUseClientMode(true);
            SSLParameters parameters = tls.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"http/1.1"});
            tls.setSSLParameters(parameters);
            tls.startHandshake();
            return new Connection(tcp, tls);
        } catch (IOException | RuntimeException e) {
            reset(tcp);
            throw e;
        }
    }

    /** Closes {@code socket} with a TCP reset (RST) instead of a FIN: the peer sees the connection vanish. */
    static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            // already closed: nothing left to reset
        }
        try {
            socket.close();
        } catch (IOException e) {
            // closing a socket that is gone: nothing to do
        }
    }

    /** Resets every socket still open, now and as soon as any later one is made: the fault's blocked reads and writes fail at once. */
    void abort() {
        aborted = true;
        for (Socket socket : opened) {
            if (!socket.isClosed()) reset(socket);
        }
    }

    /** How many sockets the fault opened. */
    int count() {
        return opened.size();
    }

    /** Resets whatever the fault left open. */
    @Override
    public void close() {
        abort();
    }
}
