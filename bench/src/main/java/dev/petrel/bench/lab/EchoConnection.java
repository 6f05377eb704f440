package dev.petrel.bench.lab;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * One client connection to a WebSocket echo, for the lab's load tool ({@link WebSocketLoad}):
 * connected and upgraded in blocking mode with a timeout ({@link #open}), then non-blocking, so
 * that one selector can drive many ({@link #register}) and one alone can wait with a deadline
 * ({@link #awaitMessage}). What the server sends is read into one buffer per connection and
 * decoded as it comes ({@link ServerFrameDecoder}); a ping is answered at once with its pong.
 *
 * <p>Not thread-safe.
 */
final class EchoConnection implements AutoCloseable {
    /** Bytes read from the socket at most at once; a larger message is read in several. */
    static final int READ_BUFFER_BYTES = 64 * 1024;

    private final SocketChannel channel;
    private final ServerFrameDecoder decoder;
    private final ByteBuffer input; // read mode between calls: what was read and not yet decoded
    private final RandomGenerator random;
    private Selector ownSelector;   // made on the first awaitMessage, for a connection waited on alone
    private SelectionKey key;       // when registered with a shared selector
    private ByteBuffer pending;     // a frame not yet wholly written, in non-blocking use

    private EchoConnection(SocketChannel channel, ServerFrameDecoder decoder, ByteBuffer input, RandomGenerator random) {
        this.channel = channel;
        this.decoder = decoder;
        this.input = input;
        this.random = random;
    }

    /**
     * Connects to {@code address}, sends the opening handshake for {@code path} and checks the
     * answer ({@link WebSocketHandshake#check}), each within {@code timeout}; the connection is
     * non-blocking from then on. Messages of up to {@code maxMessageBytes} are allowed, and kept
     * for {@link #payload()} with {@code keepPayload}.
     */
    static EchoConnection open(InetSocketAddress address, String path, long maxMessageBytes, boolean keepPayload,
                               Duration timeout, RandomGenerator random) throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
            channel.socket().connect(address, millis);
            channel.socket().setSoTimeout(millis);
            WebSocketHandshake handshake = new WebSocketHandshake(address.getHostString(), address.getPort(), path, random);
            ByteBuffer request = ByteBuffer.wrap(handshake.request());
            while (request.hasRemaining()) channel.write(request);
            // the socket's stream, unlike the channel, honours the read timeout in blocking mode
            InputStream in = channel.socket().getInputStream();
            ByteBuffer input = ByteBuffer.allocate(READ_BUFFER_BYTES);
            int end;
            while ((end = WebSocketHandshake.headEnd(input.array(), input.position())) < 0) {
                if (!input.hasRemaining()) throw new ProtocolException("a handshake response head of more than " + READ_BUFFER_BYTES + " bytes");
                int n = in.read(input.array(), input.position(), input.remaining());
                if (n < 0) throw new EOFException("closed by the server during the handshake");
                input.position(input.position() + n);
            }
            handshake.check(new String(input.array(), 0, end, StandardCharsets.ISO_8859_1));
            // anything after the head is the server's first frames
            input.flip().position(end);
            channel.configureBlocking(false);
            return new EchoConnection(channel, new ServerFrameDecoder(maxMessageBytes, keepPayload), input, random);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The decoder, whose {@code opcode()}, {@code length()} and {@code payload()} describe the last message. */
    ServerFrameDecoder decoder() {
        return decoder;
    }

    /** The bytes of the last message, when kept. */
    byte[] payload() {
        return decoder.payload();
    }

    /**
     * Starts writing {@code frame}; whether it was written whole. When not, the rest waits for
     * {@link #writeRest()} (the caller waits for the channel to be writable).
     */
    boolean send(byte[] frame) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(frame);
        channel.write(bytes);
        pending = bytes.hasRemaining() ? bytes : null;
        return pending == null;
    }

    /** Writes what {@link #send} left; whether it is all written now. */
    boolean writeRest() throws IOException {
        if (pending == null) return true;
        channel.write(pending);
        if (pending.hasRemaining()) return false;
        pending = null;
        return true;
    }

    /**
     * Decodes what has been read; reads once more from the socket when that held no whole message.
     * Returns true when a whole message is there ({@link #decoder()} describes it), false when the
     * socket had nothing more for now. Pings are answered on the way.
     *
     * @throws EOFException when the server closed the connection
     * @throws ProtocolException when the server broke the protocol, or closed the session (its code in the message)
     */
    boolean poll() throws IOException {
        for (boolean readOnce = false; ; readOnce = true) {
            ServerFrameDecoder.Event event = decoder.next(input);
            switch (event) {
                case MESSAGE -> {
                    return true;
                }
                case PING -> {
                    // answered, then decoding goes on; a selector wakes the caller again for what is left
                    answerPing();
                    continue;
                }
                case CLOSE -> throw new ProtocolException("the server closed the session with " + decoder.closeCode());
                case NEED_MORE -> { }
            }
            if (readOnce) return false;
            input.compact();
            int n;
            try {
                n = channel.read(input);
            } finally {
                input.flip();
            }
            if (n < 0) throw new EOFException("closed by the server");
            if (n == 0) return false;
        }
    }

    /**
     * Waits for the next whole message, at most until {@code deadlineNanos} ({@link System#nanoTime}).
     *
     * @throws SocketTimeoutException when none came by then
     */
    void awaitMessage(long deadlineNanos) throws IOException {
        if (ownSelector == null) {
            ownSelector = Selector.open();
            channel.register(ownSelector, SelectionKey.OP_READ);
        }
        while (!poll()) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) throw new SocketTimeoutException("no echo within the time limit");
            ownSelector.select(Math.max(1, left / 1_000_000));
            ownSelector.selectedKeys().clear();
        }
    }

    /** Registers with {@code selector} for reads, {@code attachment} attached; the key is {@link #key()}. */
    void register(Selector selector, Object attachment) throws IOException {
        key = channel.register(selector, SelectionKey.OP_READ, attachment);
    }

    /** The key of {@link #register}, or {@code null}. */
    SelectionKey key() {
        return key;
    }

    /** A pong with the ping's payload, written whole (control frames are small). */
    private void answerPing() throws IOException {
        ByteBuffer pong = ByteBuffer.wrap(ClientFrame.masked(ClientFrame.PONG, decoder.controlPayload(), random));
        long deadline = System.nanoTime() + 1_000_000_000L;
        while (pong.hasRemaining()) {
            channel.write(pong);
            if (pong.hasRemaining() && System.nanoTime() > deadline) throw new SocketTimeoutException("the server reads nothing");
        }
    }

    /** Sends a close (1000) without waiting for the answer, and closes the socket. */
    @Override
    public void close() {
        try {
            if (channel.isOpen() && pending == null) channel.write(ByteBuffer.wrap(ClientFrame.close(1000, random)));
        } catch (IOException ignored) {
            // the socket is closed below either way
        }
        try {
            if (ownSelector != null) ownSelector.close();
            channel.close();
        } catch (IOException ignored) {
            // nothing more to release
        }
    }
}
