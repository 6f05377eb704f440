package dev.petrel.bench.floor;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * The floor over io_uring through the FFM API ({@link IoUring}): one thread, one ring, completions
 * instead of readiness. The answers are those of dummy.c, {@link NioFloor} and {@link FfmEpollFloor};
 * the loop cannot be theirs, since an operation owns its buffer until it completes:
 *
 * <ul>
 *   <li>one accept is always outstanding on the (blocking) listening socket, queued again as it completes;</li>
 *   <li>each connection has its own input ({@link #IN_CAP}) and output buffer, native, taken from a pool
 *       of connections that outlive their sockets (steady state allocates nothing, with or without
 *       keep-alive), and at most one operation outstanding: a recv, or a send of up to {@link #MAX_QUEUE}
 *       answers; a send that falls short is queued again for the rest;</li>
 *   <li>a connection that must close is shut down and closed with plain calls once its last send completes.</li>
 * </ul>
 *
 * Every submission of a loop turn goes to the kernel in the one {@code io_uring_enter} that also waits
 * for the next completions.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp 'bench/target/lib/*' dev.petrel.bench.floor.FfmIoUringFloor PORT</pre>
 */
public final class FfmIoUringFloor implements FloorServer {
    private static final int ENTRIES = 1024;
    private static final int ACCEPT = 0;
    private static final int RECV = 1;
    private static final int SEND = 2;
    private static final int WAKE = 3;

    private final int listenFd;
    private final int port;
    /** Written by {@link #close()}: completes the read the loop keeps outstanding on it. */
    private final int wakeFd;
    private final RequestHeads heads = new RequestHeads();
    private final ArrayDeque<Connection> idle = new ArrayDeque<>();
    private final IoUring.Completions onCompletion = this::completed;
    private volatile boolean stopping;
    private Connection[] slots = new Connection[256];
    private int slotCount;

    // the loop's, made in run()
    private Arena arena;
    private IoUring ring;
    private MemorySegment errno;
    private MemorySegment one;

    /** Binds {@code 127.0.0.1:port} (0: any free port). */
    public FfmIoUringFloor(int port) throws IOException {
        ListenSocket listen = ListenSocket.open(port, false);
        listenFd = listen.fd();
        this.port = listen.port();
        try (Arena setup = Arena.ofConfined()) {
            MemorySegment state = setup.allocate(Libc.ERRNO_STATE);
            int fd = Libc.eventfd(state, 0, Libc.EFD_CLOEXEC);
            if (fd < 0) {
                Libc.close(state, listenFd);
                throw new IOException(Libc.failed("eventfd", Libc.errno(state)));
            }
            wakeFd = fd;
        }
    }

    public static void main(String[] args) throws IOException {
        FloorServer.main("ffm-io_uring-floor", args, FfmIoUringFloor::new);
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public void run() throws IOException {
        try (Arena loopArena = Arena.ofConfined()) {
            arena = loopArena;
            errno = arena.allocate(Libc.ERRNO_STATE);
            one = arena.allocateFrom(JAVA_INT, 1);
            MemorySegment wakeValue = arena.allocate(JAVA_LONG);
            ring = new IoUring(ENTRIES, arena);
            try {
                prepareAccept();
                ring.prepare(IoUring.OP_READ, wakeFd, wakeValue.address(), Long.BYTES, 0, 0, WAKE);
                while (!stopping) {
                    ring.submitAndWait();
                    ring.complete(onCompletion);
                }
            } finally {
                ring.close(); // the kernel cancels what is still outstanding
                for (int i = 0; i < slotCount; i++) {
                    if (slots[i].fd >= 0) Libc.close(errno, slots[i].fd);
                }
                Arrays.fill(slots, null);
                Libc.close(errno, listenFd);
                Libc.close(errno, wakeFd);
            }
        }
    }

    @Override
    public void close() {
        stopping = true;
        Libc.signal(wakeFd);
    }

    private void completed(long userData, int result) throws IOException {
        int kind = (int) (userData & 0xff);
        if (kind == ACCEPT) {
            if (result >= 0) accepted(result);
            if (!stopping) prepareAccept(); // after an error too (ECONNABORTED, EMFILE): the next one may do
            return;
        }
        if (kind == WAKE) return; // stopping is set
        Connection c = slots[(int) (userData >>> 8)];
        if (kind == RECV) {
            if (result <= 0) { // the peer's end, or an error
                close(c);
                return;
            }
            c.inLength += result;
            serve(c);
        } else {
            if (result < 0) {
                close(c);
                return;
            }
            c.outSent += result;
            if (c.outSent < c.outLength) {
                prepareSend(c); // the rest
            } else if (c.closing) {
                Libc.shutdown(errno, c.fd, Libc.SHUT_WR);
                close(c);
            } else {
                serve(c); // what else waited in the input, or the next recv
            }
        }
    }

    private void accepted(int fd) throws IOException {
        Libc.setsockopt(errno, fd, Libc.IPPROTO_TCP, Libc.TCP_NODELAY, one, Integer.BYTES);
        Connection c = idle.poll();
        if (c == null) {
            if (slotCount == slots.length) slots = Arrays.copyOf(slots, slotCount * 2);
            c = new Connection(slotCount, arena.allocate(IN_CAP), arena.allocate((long) MAX_QUEUE * FloorResponse.MAX_LENGTH));
            slots[slotCount++] = c;
        }
        c.open(fd);
        prepareRecv(c);
    }

    /** Answers up to {@link #MAX_QUEUE} complete heads of the input with one send, or reads on. */
    private void serve(Connection c) throws IOException {
        long pos = 0;
        int queued = 0;
        long outLength = 0;
        while (!c.closing) {
            if (c.skip > 0) {
                long k = Math.min(c.inLength - pos, c.skip);
                pos += k;
                c.skip -= k;
                if (c.skip > 0) break;
            }
            if (queued == MAX_QUEUE) break;
            if (!heads.next(c.in, pos, c.inLength)) break;
            byte[] response = FloorResponse.bytes(heads);
            int length = FloorResponse.length(heads, response);
            MemorySegment.copy(response, 0, c.out, JAVA_BYTE, outLength, length);
            outLength += length;
            queued++;
            pos = heads.end();
            c.skip = heads.contentLength();
            if (!heads.keepAlive()) c.closing = true; // what follows on this connection is ignored
        }
        if (c.closing) pos = c.inLength;
        if (pos > 0) { // the unanswered rest to the front (the copy allows the overlap)
            MemorySegment.copy(c.in, pos, c.in, 0, c.inLength - pos);
            c.inLength -= pos;
        }
        if (outLength > 0) {
            c.outLength = outLength;
            c.outSent = 0;
            prepareSend(c);
        } else if (c.inLength == IN_CAP) { // a head longer than the buffer: not a client of this benchmark
            close(c);
        } else {
            prepareRecv(c);
        }
    }

    private void prepareAccept() throws IOException {
        ring.prepare(IoUring.OP_ACCEPT, listenFd, 0, 0, 0, Libc.SOCK_CLOEXEC, ACCEPT);
    }

    private void prepareRecv(Connection c) throws IOException {
        ring.prepare(IoUring.OP_RECV, c.fd, c.in.address() + c.inLength, IN_CAP - c.inLength, 0, 0,
                ((long) c.slot << 8) | RECV);
    }

    private void prepareSend(Connection c) throws IOException {
        ring.prepare(IoUring.OP_SEND, c.fd, c.out.address() + c.outSent, c.outLength - c.outSent, 0, 0,
                ((long) c.slot << 8) | SEND);
    }

    private void close(Connection c) {
        Libc.close(errno, c.fd);
        c.fd = -1;
        idle.push(c);
    }

    /** A slot: a connection's buffers and state, reused by the next connection once its socket is closed. */
    private static final class Connection {
        final int slot;
        final MemorySegment in;
        final MemorySegment out;
        int fd = -1;
        long inLength;
        long outLength;
        long outSent;
        long skip;
        boolean closing;

        Connection(int slot, MemorySegment in, MemorySegment out) {
            this.slot = slot;
            this.in = in;
            this.out = out;
        }

        void open(int fd) {
            this.fd = fd;
            inLength = 0;
            outLength = 0;
            outSent = 0;
            skip = 0;
            closing = false;
        }
    }
}
