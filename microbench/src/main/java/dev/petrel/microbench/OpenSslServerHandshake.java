package dev.petrel.microbench;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * The server side of a TLS handshake done by the system's OpenSSL 3 ({@code libssl.so.3}) through
 * {@code java.lang.foreign}, for issue 19's measurement of an own binding beside JSSE and Netty's
 * tcnative: hand-written downcalls for the dozen functions a handshake over memory BIOs needs, no
 * jextract. One context per benchmark, one {@code SSL} per handshake, freed by its owner right after.
 * A measuring tool only: no error queue handling beyond failing, no certificate reload, no ALPN.
 */
final class OpenSslServerHandshake implements AutoCloseable {
    private static final int SSL_FILETYPE_PEM = 1;
    private static final int SSL_CTRL_SET_MIN_PROTO_VERSION = 123;
    private static final int SSL_CTRL_SET_GROUPS_LIST = 92;
    private static final int TLS1_3_VERSION = 0x0304;
    private static final int BIO_CTRL_PENDING = 10;
    private static final int SSL_ERROR_WANT_READ = 2;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup SSL = SymbolLookup.libraryLookup("libssl.so.3", Arena.global());
    private static final SymbolLookup CRYPTO = SymbolLookup.libraryLookup("libcrypto.so.3", Arena.global());

    private static final MethodHandle TLS_SERVER_METHOD = ssl("TLS_server_method", FunctionDescriptor.of(ADDRESS));
    private static final MethodHandle SSL_CTX_NEW = ssl("SSL_CTX_new", FunctionDescriptor.of(ADDRESS, ADDRESS));
    private static final MethodHandle SSL_CTX_FREE = ssl("SSL_CTX_free", FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle SSL_CTX_USE_CHAIN = ssl("SSL_CTX_use_certificate_chain_file", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle SSL_CTX_USE_KEY = ssl("SSL_CTX_use_PrivateKey_file", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
    private static final MethodHandle SSL_CTX_CTRL = ssl("SSL_CTX_ctrl", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS));
    private static final MethodHandle SSL_CTX_SET_NUM_TICKETS = ssl("SSL_CTX_set_num_tickets", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle SSL_NEW = ssl("SSL_new", FunctionDescriptor.of(ADDRESS, ADDRESS));
    private static final MethodHandle SSL_FREE = ssl("SSL_free", FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle SSL_SET_BIO = ssl("SSL_set_bio", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle SSL_SET_ACCEPT_STATE = ssl("SSL_set_accept_state", FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle SSL_DO_HANDSHAKE = ssl("SSL_do_handshake", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle SSL_GET_ERROR = ssl("SSL_get_error", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle BIO_S_MEM = crypto("BIO_s_mem", FunctionDescriptor.of(ADDRESS));
    private static final MethodHandle BIO_NEW = crypto("BIO_new", FunctionDescriptor.of(ADDRESS, ADDRESS));
    private static final MethodHandle BIO_WRITE = crypto("BIO_write", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
    private static final MethodHandle BIO_READ = crypto("BIO_read", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
    private static final MethodHandle BIO_CTRL = crypto("BIO_ctrl", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS));
    private static final MethodHandle ERR_CLEAR_ERROR = crypto("ERR_clear_error", FunctionDescriptor.ofVoid());

    private final MemorySegment context;
    private final Arena arena = Arena.ofConfined(); // the benchmark's thread owns the context and every SSL
    private final MemorySegment buffer = arena.allocate(64 * 1024);
    private MemorySegment ssl = MemorySegment.NULL;
    private MemorySegment in;
    private MemorySegment out;

    /** A TLS 1.3 context with the PEM chain and key, X25519 only, and no session tickets (as Netty's engine ran). */
    OpenSslServerHandshake(Path chain, Path key) throws Throwable {
        context = (MemorySegment) SSL_CTX_NEW.invokeExact((MemorySegment) TLS_SERVER_METHOD.invokeExact());
        check((int) SSL_CTX_USE_CHAIN.invokeExact(context, arena.allocateFrom(chain.toString())), "certificate chain");
        check((int) SSL_CTX_USE_KEY.invokeExact(context, arena.allocateFrom(key.toString()), SSL_FILETYPE_PEM), "private key");
        check((int) (long) SSL_CTX_CTRL.invokeExact(context, SSL_CTRL_SET_MIN_PROTO_VERSION, (long) TLS1_3_VERSION, MemorySegment.NULL),
                "TLS 1.3");
        check((int) (long) SSL_CTX_CTRL.invokeExact(context, SSL_CTRL_SET_GROUPS_LIST, 0L, arena.allocateFrom("X25519")), "groups");
        check((int) SSL_CTX_SET_NUM_TICKETS.invokeExact(context, 0L), "tickets");
    }

    /** A fresh connection: a new {@code SSL} over two memory BIOs, in the server's role. */
    void begin() throws Throwable {
        ERR_CLEAR_ERROR.invokeExact(); // the error queue is per OS thread and may hold an earlier failure
        ssl = (MemorySegment) SSL_NEW.invokeExact(context);
        in = (MemorySegment) BIO_NEW.invokeExact((MemorySegment) BIO_S_MEM.invokeExact());
        out = (MemorySegment) BIO_NEW.invokeExact((MemorySegment) BIO_S_MEM.invokeExact());
        SSL_SET_BIO.invokeExact(ssl, in, out); // the SSL owns both BIOs from here
        SSL_SET_ACCEPT_STATE.invokeExact(ssl);
    }

    /**
     * Takes the client's {@code length} bytes in {@code data}, advances the handshake and returns
     * what the server has to send (empty when nothing).
     *
     * @return whether the handshake is complete, in {@code done[0]}
     */
    byte[] step(byte[] data, int length, boolean[] done) throws Throwable {
        if (length > 0) {
            MemorySegment.copy(data, 0, buffer, JAVA_BYTE, 0, length);
            if ((int) BIO_WRITE.invokeExact(in, buffer, length) != length) throw new IllegalStateException("BIO_write");
        }
        int result = (int) SSL_DO_HANDSHAKE.invokeExact(ssl);
        if (result == 1) {
            done[0] = true;
        } else {
            int error = (int) SSL_GET_ERROR.invokeExact(ssl, result);
            if (error != SSL_ERROR_WANT_READ) throw new IllegalStateException("SSL_do_handshake failed: SSL_get_error " + error);
        }
        int pending = (int) (long) BIO_CTRL.invokeExact(out, BIO_CTRL_PENDING, 0L, MemorySegment.NULL);
        if (pending == 0) return new byte[0];
        int read = (int) BIO_READ.invokeExact(out, buffer, pending);
        return buffer.asSlice(0, read).toArray(JAVA_BYTE);
    }

    /** Frees the connection's {@code SSL} (and its BIOs) on the thread that made it. */
    void end() throws Throwable {
        if (!ssl.equals(MemorySegment.NULL)) SSL_FREE.invokeExact(ssl);
        ssl = MemorySegment.NULL;
    }

    @Override
    public void close() throws Exception {
        try {
            end();
            SSL_CTX_FREE.invokeExact(context);
        } catch (Throwable e) {
            throw new Exception(e);
        } finally {
            arena.close();
        }
    }

    private static void check(int result, String what) {
        if (result != 1) throw new IllegalStateException("OpenSSL refused the " + what + " (" + result + ")");
    }

    private static MethodHandle ssl(String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(SSL.findOrThrow(name), descriptor);
    }

    private static MethodHandle crypto(String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(CRYPTO.findOrThrow(name), descriptor);
    }
}
