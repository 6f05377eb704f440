package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.fail;

import dev.petrel.server.Server;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLSocket;

/**
 * A deliberately dumb HTTP/1.1 client for tests, over TCP or TLS: it writes exactly the bytes it
 * is given and parses responses strictly (CRLF line ends, one framing per response), so that both what the
 * server accepts and what it sends are visible byte for byte. Every read gives up after
 * {@link #READ_TIMEOUT_MILLIS}.
 */
final class RawClient implements AutoCloseable {
    static final int READ_TIMEOUT_MILLIS = 5_000;
    static final int CLOSE_WAIT_MILLIS = 3_000;

    private final Socket socket;
    private final Socket tcp; // the TCP socket under a TLS one; the same as socket otherwise
    private final InputStream in;
    private final OutputStream out;

    private RawClient(Socket socket, Socket tcp) throws IOException {
        this.socket = socket;
        this.tcp = tcp;
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        socket.setTcpNoDelay(true);
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Connects to {@code server}, over TLS when it serves HTTPS only (a TLS variant). */
    static RawClient connect(Server server) throws IOException {
        return connect(server, 0);
    }

    /**
     * Connects to {@code server} from the local address {@code from} (any 127.x.y.z is loopback
     * on Linux, so a test can be a client the server does not trust), sends {@code preface} in
     * clear text (a PROXY protocol header), then speaks TLS if the server serves HTTPS only.
     */
    static RawClient connectWithPreface(Server server, String from, byte[] preface) throws IOException {
        boolean tls = !server.servesPlainHttp();
        int port = server.address().getPort();
        Socket socket = new Socket();
        try {
            socket.bind(new InetSocketAddress(from, 0));
            socket.connect(new InetSocketAddress("127.0.0.1", port), READ_TIMEOUT_MILLIS);
            socket.getOutputStream().write(preface);
            socket.getOutputStream().flush();
            if (!tls) return new RawClient(socket, socket);
            SSLSocket secure = (SSLSocket) TestCertificate.get().clientContext().getSocketFactory()
                    .createSocket(socket, "localhost", port, true);
            secure.setSoTimeout(READ_TIMEOUT_MILLIS);
            secure.startHandshake();
            return new RawClient(secure, socket);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** Connects to a plain HTTP port on loopback from the local address {@code from}, e.g. {@code 127.0.0.2}. */
    static RawClient connectFrom(String from, int port) throws IOException {
        Socket socket = new Socket();
        try {
            socket.bind(new InetSocketAddress(from, 0));
            socket.connect(new InetSocketAddress("127.0.0.1", port), READ_TIMEOUT_MILLIS);
            return new RawClient(socket, socket);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** The local port this client connected from. */
    int localPort() {
        return tcp.getLocalPort();
    }

    /** Connects to a plain HTTP port. */
    static RawClient connect(int port) throws IOException {
        return connect(port, 0, false);
    }

    /**
     * Connects to {@code server} (over TLS when it serves HTTPS only) with a fixed receive buffer
     * of {@code receiveBufferBytes} (0: the system's, which grows as the client reads). Set before
     * connecting, so that the window offered to the server is the small one from the start.
     */
    static RawClient connect(Server server, int receiveBufferBytes) throws IOException {
        boolean tls = !server.servesPlainHttp();
        return connect(server.address().getPort(), receiveBufferBytes, tls);
    }

    private static RawClient connect(int port, int receiveBufferBytes, boolean tls) throws IOException {
        Socket socket = new Socket();
        try {
            if (receiveBufferBytes > 0) socket.setReceiveBufferSize(receiveBufferBytes);
            socket.connect(new InetSocketAddress("127.0.0.1", port), READ_TIMEOUT_MILLIS);
            if (!tls) return new RawClient(socket, socket);
            SSLSocket secure = (SSLSocket) TestCertificate.get().clientContext().getSocketFactory()
                    .createSocket(socket, "localhost", port, true);
            secure.setSoTimeout(READ_TIMEOUT_MILLIS);
            secure.startHandshake(); // here, so that a test's first write is its request
            return new RawClient(secure, socket);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    // ---- writing ----

    /** Writes {@code text} as ISO-8859-1, one byte per char, in one write. */
    RawClient send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawClient send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** Writes {@code text} one byte per write, pausing {@code pauseMillis} after each. */
    RawClient sendByteByByte(String text, long pauseMillis) throws IOException, InterruptedException {
        for (byte b : text.getBytes(StandardCharsets.ISO_8859_1)) {
            out.write(b);
            out.flush();
            if (pauseMillis > 0) Thread.sleep(pauseMillis);
        }
        return this;
    }

    /**
     * Half-closes: the server reads end of stream, and we can still read its answer. Over TLS
     * this sends close_notify first, a clean end of the TLS stream.
     */
    void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /**
     * Half-closes the TCP connection without a word from TLS: over TLS, no close_notify, as when
     * a client or a middlebox drops the connection (a truncation attack looks the same); on a
     * plain connection the same as {@link #shutdownOutput()}.
     */
    void shutdownTcpOutput() throws IOException {
        tcp.shutdownOutput();
    }

    /** Whether this client speaks TLS. */
    boolean tls() {
        return socket != tcp;
    }

    /**
     * Whether response bytes (or, over TLS, the end of the stream) are waiting to be read now.
     * Over TLS, {@code available()} counts only what is decrypted already, so a record is read
     * with a 1 ms timeout and its first byte kept for the next read.
     */
    boolean inputAvailable() throws IOException {
        if (in.available() > 0) return true;
        if (!(socket instanceof SSLSocket)) return false;
        socket.setSoTimeout(1);
        in.mark(1);
        try {
            if (in.read() >= 0) in.reset();
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } finally {
            if (!socket.isClosed()) socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        }
    }

    // ---- reading ----

    /** Reads the next complete response; its body is framed as for a GET. */
    RawResponse read() throws IOException {
        return readBody(readHead(), false);
    }

    /** Reads the next complete response to a HEAD request: never a body, whatever the headers say. */
    RawResponse readForHead() throws IOException {
        return readBody(readHead(), true);
    }

    /** Reads a status line and headers only; the body stays on the wire (see {@link #readToEnd()}). */
    RawResponse readHead() throws IOException {
        String statusLine = readLine(true);
        if (!statusLine.matches("HTTP/1\\.1 \\d{3} .*")) throw new AssertionError("bad status line: " + statusLine);
        int status = Integer.parseInt(statusLine.substring(9, 12));
        List<RawResponse.Header> headers = readFields();
        return new RawResponse(statusLine, status, headers, null, List.of());
    }

    /**
     * Reads and discards until the connection ends, by end of stream or by a reset (a server that
     * closes with unread input may reset); returns how many bytes came. Fails when neither comes
     * within {@link #READ_TIMEOUT_MILLIS} of the last byte.
     */
    long discardUntilClosed() throws IOException {
        byte[] discard = new byte[64 * 1024];
        long total = 0;
        try {
            int n;
            while ((n = in.read(discard)) >= 0) total += n;
        } catch (SocketTimeoutException e) {
            fail("the connection was not closed; " + total + " bytes read, then nothing for " + READ_TIMEOUT_MILLIS + " ms");
        } catch (java.net.SocketException e) {
            // reset: closed too
        }
        return total;
    }

    /**
     * Reads {@code bytes} bytes, pauses {@code pause}, and again, {@code times} times at most or
     * until the connection ends: a client that reads, but far too slowly. Never throws.
     */
    void readSlowly(int bytes, java.time.Duration pause, int times) {
        try {
            for (int i = 0; i < times; i++) {
                if (in.readNBytes(bytes).length < bytes) return;
                Thread.sleep(pause);
            }
        } catch (IOException | InterruptedException e) {
            // the server cut the connection, or the test is over
        }
    }

    /** Reads and discards {@code n} bytes, fewer only at end of stream; returns how many. */
    int readUpTo(int n) throws IOException {
        return in.readNBytes(n).length;
    }

    /** Reads raw bytes until the server closes. */
    byte[] readToEnd() throws IOException {
        return in.readAllBytes();
    }

    /** What the server sends, read raw: after {@link #readHead()}, the body. */
    InputStream input() {
        return in;
    }

    /** A reset of the connection by the server (or, over TLS, an alert): the end of what it sends, as a failure. */
    static final int RESET = -2;

    /**
     * Reads what has come, at most {@code buffer.length} bytes, waiting for at least one: how many,
     * -1 at end of stream, or {@link #RESET}. Fails when nothing comes within {@link #READ_TIMEOUT_MILLIS}.
     */
    int readSome(byte[] buffer) throws IOException {
        try {
            return in.read(buffer);
        } catch (SocketTimeoutException e) {
            fail("nothing from the server for " + READ_TIMEOUT_MILLIS + " ms: neither more of the response nor its end");
            return -1;
        } catch (IOException e) {
            return RESET;
        }
    }

    /** Resets the connection (TCP RST, no close_notify): a client that vanishes mid-request. */
    void reset() throws IOException {
        tcp.setSoLinger(true, 0);
        tcp.close();
    }

    /**
     * Asserts the server closes the connection: end of stream arrives within a few seconds, and
     * no byte before it.
     */
    void assertClosedByServer() throws IOException {
        socket.setSoTimeout(CLOSE_WAIT_MILLIS);
        try {
            int b = in.read();
            if (b >= 0) {
                byte[] rest = in.readNBytes(Math.min(in.available(), 200));
                fail("expected end of stream, got bytes: "
                        + new String(new byte[] {(byte) b}, StandardCharsets.ISO_8859_1)
                        + new String(rest, StandardCharsets.ISO_8859_1));
            }
        } catch (SocketTimeoutException e) {
            fail("the server did not close the connection within " + CLOSE_WAIT_MILLIS + " ms");
        } finally {
            if (!socket.isClosed()) socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        }
    }

    /** Asserts the connection is still open: nothing arrives, not even end of stream, within {@code millis}. */
    void assertStillOpen(int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            int b = in.read();
            fail(b < 0 ? "the server closed the connection" : "unexpected byte from the server: " + b);
        } catch (SocketTimeoutException expected) {
            // still open
        } finally {
            socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        }
    }

    private RawResponse readBody(RawResponse head, boolean headRequest) throws IOException {
        int status = head.status();
        String transferEncoding = head.header("Transfer-Encoding");
        String contentLength = head.header("Content-Length");
        if (transferEncoding != null && contentLength != null) {
            throw new AssertionError("response has both Transfer-Encoding and Content-Length: " + head);
        }
        if (head.headers("Content-Length").size() > 1) throw new AssertionError("repeated Content-Length: " + head);
        if (headRequest || status < 200 || status == 204 || status == 304) return head.withBody(new byte[0], List.of());
        if (transferEncoding != null) {
            if (!transferEncoding.equalsIgnoreCase("chunked")) throw new AssertionError("unexpected coding " + transferEncoding);
            return readChunked(head);
        }
        if (contentLength != null) {
            int length = Integer.parseInt(contentLength);
            byte[] body = in.readNBytes(length);
            if (body.length < length) throw new EOFException("body cut short: " + body.length + " of " + length + " bytes");
            return head.withBody(body, List.of());
        }
        return head.withBody(readToEnd(), List.of()); // delimited by close
    }

    private RawResponse readChunked(RawResponse head) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(false);
            int semicolon = sizeLine.indexOf(';');
            String hex = (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).strip();
            int size = Integer.parseInt(hex, 16);
            if (size == 0) break;
            byte[] data = in.readNBytes(size);
            if (data.length < size) throw new EOFException("chunk cut short");
            body.write(data);
            if (!readLine(false).isEmpty()) throw new AssertionError("chunk data not followed by CRLF");
        }
        return head.withBody(body.toByteArray(), readFields());
    }

    private List<RawResponse.Header> readFields() throws IOException {
        List<RawResponse.Header> fields = new ArrayList<>();
        while (true) {
            String line = readLine(false);
            if (line.isEmpty()) return fields;
            int colon = line.indexOf(':');
            if (colon <= 0) throw new AssertionError("bad field line: " + line);
            fields.add(new RawResponse.Header(line.substring(0, colon), line.substring(colon + 1).strip()));
        }
    }

    /** A line ending in CRLF, without it; a bare LF is a server bug. */
    private String readLine(boolean first) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException(first && line.size() == 0
                        ? "connection closed before a response"
                        : "connection closed inside a line: " + line.toString(StandardCharsets.ISO_8859_1));
            }
            if (b == '\n') throw new AssertionError("bare LF after: " + line.toString(StandardCharsets.ISO_8859_1));
            if (b == '\r') {
                if (in.read() != '\n') throw new AssertionError("CR not followed by LF");
                return line.toString(StandardCharsets.ISO_8859_1);
            }
            line.write(b);
            if (line.size() > 64 * 1024) throw new AssertionError("line too long");
        }
    }

    /**
     * Closes the connection from the client's side now, inside the try block that will close it
     * again. Over TLS this closes the TCP socket itself: the JDK's {@code SSLSocket.close()} first
     * waits for and skips whatever the server is sending, for as long as more keeps coming, so a
     * client leaving that way would go on reading a response it was meant to abandon.
     */
    void disconnect() throws IOException {
        tcp.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
