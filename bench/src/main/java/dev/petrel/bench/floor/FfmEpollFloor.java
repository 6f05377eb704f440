package dev.petrel.bench.floor;

import static dev.petrel.bench.floor.Libc.EAGAIN;
import static dev.petrel.bench.floor.Libc.ECONNABORTED;
import static dev.petrel.bench.floor.Libc.EINTR;
import static dev.petrel.bench.floor.Libc.EPOLLERR;
import static dev.petrel.bench.floor.Libc.EPOLLHUP;
import static dev.petrel.bench.floor.Libc.EPOLLIN;
import static dev.petrel.bench.floor.Libc.EPOLLOUT;
import static dev.petrel.bench.floor.Libc.EPOLL_DATA;
import static dev.petrel.bench.floor.Libc.EPOLL_EVENT;
import static dev.petrel.bench.floor.Libc.EPOLL_EVENTS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The floor over Linux epoll through the FFM API ({@link Libc}): one thread, the loop of
 * {@code bench/baseline/dummy.c} and {@link NioFloor}, with the kernel called directly instead of
 * through {@code sun.nio.ch}.
 *
 * <p><b>Level-triggered</b> by default, as dummy.c: a connection is registered for EPOLLIN, switched to
 * EPOLLOUT alone while a response waits for room, and back, one read per event. <b>Edge-triggered</b> with
 * {@code -Dpetrel.floor.trigger=edge}: registered once for EPOLLIN, EPOLLOUT and EPOLLRDHUP, never
 * modified; on an event it writes what waits and reads until the socket is drained. A read shorter than
 * the room it was given counts as drained (the next bytes bring a new edge), so under wrk it makes the
 * same calls as level-triggered, minus the kernel's re-check of every ready descriptor at the next wait;
 * with a hang-up reported it reads on to the end instead. Every buffer the loop uses (input, output, the
 * event array, errno) lives in one confined {@link Arena} made by {@link #run()}; a connection keeps
 * bytes of its own (on the heap) only between events, so steady state allocates nothing per request.
 * An event's data is the file descriptor; connections are found in an array indexed by it.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp 'bench/target/lib/*' dev.petrel.bench.floor.FfmEpollFloor PORT</pre>
 */
public final class FfmEpollFloor implements FloorServer {
    private static final int MAX_EVENTS = 256; // as dummy.c
    /** The trigger {@link #FfmEpollFloor(int)} takes: {@code -Dpetrel.floor.trigger=edge}, or level. */
    static final boolean EDGE_BY_DEFAULT = "edge".equals(System.getProperty("petrel.floor.trigger"));

    private final int listenFd;
    private final int epollFd;
    /** Written by {@link #close()} to wake {@code epoll_wait}. */
    private final int wakeFd;
    private final int port;
    private final boolean edgeTriggered;
    /** What a connection is registered for at accept. */
    private final int acceptedEvents;
    private final RequestHeads heads = new RequestHeads();
    private volatile boolean stopping;
    private Connection[] connections = new Connection[1024];

    // the loop's native memory, made in run()
    private MemorySegment errno;
    private MemorySegment in;
    private MemorySegment out;
    private MemorySegment event;
    private MemorySegment one;
    /** Bytes of input in {@link #in} for the connection being served. */
    private long inLength;

    /** Binds {@code 127.0.0.1:port} (0: any free port), edge-triggered if {@code -Dpetrel.floor.trigger=edge}. */
    public FfmEpollFloor(int port) throws IOException {
        this(port, EDGE_BY_DEFAULT);
    }

    /** Binds {@code 127.0.0.1:port} (0: any free port), level- or edge-triggered. */
    public FfmEpollFloor(int port, boolean edgeTriggered) throws IOException {
        this.edgeTriggered = edgeTriggered;
        this.acceptedEvents = edgeTriggered ? EPOLLIN | EPOLLOUT | Libc.EPOLLRDHUP | Libc.EPOLLET : EPOLLIN;
        ListenSocket listen = ListenSocket.open(port, true);
        listenFd = listen.fd();
        this.port = listen.port();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(Libc.ERRNO_STATE);
            try {
                epollFd = check(state, "epoll_create1", Libc.epollCreate1(state, Libc.EPOLL_CLOEXEC));
                wakeFd = check(state, "eventfd", Libc.eventfd(state, 0, Libc.EFD_NONBLOCK | Libc.EFD_CLOEXEC));
                MemorySegment registration = arena.allocate(EPOLL_EVENT);
                register(state, registration, listenFd);
                register(state, registration, wakeFd);
            } catch (IOException e) {
                Libc.close(state, listenFd);
                throw e;
            }
        }
    }

    public static void main(String[] args) throws IOException {
        FloorServer.main(EDGE_BY_DEFAULT ? "ffm-epoll-floor (edge-triggered)" : "ffm-epoll-floor", args,
                FfmEpollFloor::new);
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public void run() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            errno = arena.allocate(Libc.ERRNO_STATE);
            in = arena.allocate(IN_CAP);
            out = arena.allocate((long) MAX_QUEUE * FloorResponse.MAX_LENGTH);
            event = arena.allocate(EPOLL_EVENT);
            one = arena.allocateFrom(JAVA_INT, 1);
            MemorySegment events = arena.allocate(EPOLL_EVENT, MAX_EVENTS);
            long eventSize = EPOLL_EVENT.byteSize();
            while (!stopping) {
                int n = Libc.epollWait(errno, epollFd, events, MAX_EVENTS, -1);
                if (n < 0) {
                    if (Libc.errno(errno) == EINTR) continue;
                    throw new IOException(Libc.failed("epoll_wait", Libc.errno(errno)));
                }
                for (int i = 0; i < n; i++) {
                    int ready = events.get(JAVA_INT, i * eventSize + EPOLL_EVENTS);
                    int fd = (int) events.get(JAVA_LONG_UNALIGNED, i * eventSize + EPOLL_DATA);
                    if (fd == listenFd) {
                        onAccept();
                    } else if (fd == wakeFd) {
                        continue; // stopping is set: the loop ends after this batch
                    } else {
                        Connection c = fd < connections.length ? connections[fd] : null;
                        if (c == null) continue; // closed earlier in this batch
                        if (edgeTriggered) {
                            onEdge(c, ready);
                        } else if ((ready & EPOLLOUT) != 0) {
                            onWritable(c);
                        } else if ((ready & (EPOLLIN | EPOLLHUP | EPOLLERR)) != 0) {
                            onReadable(c); // a hang-up or an error shows as a read of 0 or -1
                        }
                    }
                }
            }
        } finally {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment state = arena.allocate(Libc.ERRNO_STATE);
                for (Connection c : connections) {
                    if (c != null) Libc.close(state, c.fd);
                }
                Arrays.fill(connections, null);
                Libc.close(state, listenFd);
                Libc.close(state, epollFd);
                Libc.close(state, wakeFd);
            }
        }
    }

    @Override
    public void close() {
        stopping = true;
        Libc.signal(wakeFd);
    }

    private void onAccept() {
        for (;;) {
            int fd = Libc.accept4(errno, listenFd, MemorySegment.NULL, MemorySegment.NULL,
                    Libc.SOCK_NONBLOCK | Libc.SOCK_CLOEXEC);
            if (fd < 0) {
                int e = Libc.errno(errno);
                if (e == EINTR || e == ECONNABORTED) continue;
                return; // EAGAIN, or nothing to be done now (dummy.c refuses on EMFILE; a floor run never gets there)
            }
            Libc.setsockopt(errno, fd, Libc.IPPROTO_TCP, Libc.TCP_NODELAY, one, Integer.BYTES);
            if (fd >= connections.length) connections = Arrays.copyOf(connections, Math.max(fd + 1, connections.length * 2));
            Connection c = new Connection(fd, acceptedEvents);
            connections[fd] = c;
            event.set(JAVA_INT, EPOLL_EVENTS, acceptedEvents);
            event.set(JAVA_LONG_UNALIGNED, EPOLL_DATA, fd);
            if (Libc.epollCtl(errno, epollFd, Libc.EPOLL_CTL_ADD, fd, event) < 0) close(c);
        }
    }

    private void onReadable(Connection c) {
        restoreInput(c);
        if (inLength == IN_CAP) { // a head longer than the buffer: not a client of this benchmark
            close(c);
            return;
        }
        long n = Libc.read(errno, c.fd, inLength == 0 ? in : in.asSlice(inLength), IN_CAP - inLength);
        if (n > 0) {
            inLength += n;
            serve(c);
        } else if (n == 0) {
            close(c);
        } else {
            int e = Libc.errno(errno);
            if (e == EAGAIN || e == EINTR) keepInput(c, 0);
            else close(c);
        }
    }

    /** Edge-triggered: writes what waits, then reads and answers until the socket is drained or full. */
    private void onEdge(Connection c, int ready) {
        if (c.pendingOut != null) {
            onWritable(c);
            if (c.closed || c.pendingOut != null) return;
        }
        boolean hangUp = (ready & (Libc.EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0;
        for (;;) {
            restoreInput(c);
            if (inLength == IN_CAP) { // a head longer than the buffer: not a client of this benchmark
                close(c);
                return;
            }
            long room = IN_CAP - inLength;
            long n = Libc.read(errno, c.fd, inLength == 0 ? in : in.asSlice(inLength), room);
            if (n > 0) {
                inLength += n;
                serve(c);
                if (c.closed || c.pendingOut != null) return; // the EPOLLOUT edge brings it back
                if (n < room && !hangUp) return; // drained: the next bytes bring a new edge
            } else if (n == 0) {
                close(c);
                return;
            } else {
                int e = Libc.errno(errno);
                if (e == EINTR) continue;
                keepInput(c, 0);
                if (e != EAGAIN) close(c);
                return;
            }
        }
    }

    private void onWritable(Connection c) {
        if (c.pendingOut == null) return; // a stale event for a reused descriptor
        int length = c.pendingOut.length - c.pendingFrom;
        MemorySegment.copy(c.pendingOut, c.pendingFrom, out, JAVA_BYTE, 0, length);
        long written = writeOut(c, length);
        if (written < 0) {
            close(c);
            return;
        }
        c.pendingFrom += (int) written;
        if (c.pendingFrom < c.pendingOut.length) return;
        c.pendingOut = null;
        restoreInput(c);
        serve(c); // drained: answer what waited in the input, then read again
    }

    /** Answers the complete heads in {@link #in}, {@link #MAX_QUEUE} to a write, then waits for input or room. */
    private void serve(Connection c) {
        long pos = 0;
        for (;;) {
            boolean full = false;
            int queued = 0;
            long outLength = 0;
            while (!c.closing) {
                if (c.skip > 0) {
                    long k = Math.min(inLength - pos, c.skip);
                    pos += k;
                    c.skip -= k;
                    if (c.skip > 0) break;
                }
                if (queued == MAX_QUEUE) {
                    full = true;
                    break;
                }
                if (!heads.next(in, pos, inLength)) break;
                byte[] response = FloorResponse.bytes(heads);
                int length = FloorResponse.length(heads, response);
                MemorySegment.copy(response, 0, out, JAVA_BYTE, outLength, length);
                outLength += length;
                queued++;
                pos = heads.end();
                c.skip = heads.contentLength();
                if (!heads.keepAlive()) c.closing = true; // what follows on this connection is ignored
            }
            if (c.closing) pos = inLength;
            int flushed = flush(c, outLength);
            if (flushed < 0) {
                close(c);
                return;
            }
            if (flushed == 0) {
                keepInput(c, pos);
                setEvents(c, EPOLLOUT); // stop reading until the peer takes what it asked for
                return;
            }
            if (c.closing) {
                Libc.shutdown(errno, c.fd, Libc.SHUT_WR);
                close(c);
                return;
            }
            if (!full) break;
        }
        keepInput(c, pos);
        setEvents(c, EPOLLIN);
    }

    /** Writes {@code out[0, length)}: 1 when all went, 0 when the socket is full (the rest kept), -1 on error. */
    private int flush(Connection c, long length) {
        long written = writeOut(c, length);
        if (written < 0) return -1;
        if (written == length) return 1;
        c.pendingOut = out.asSlice(written, length - written).toArray(JAVA_BYTE);
        c.pendingFrom = 0;
        return 0;
    }

    /** Writes from {@code out[0, length)} until done or the socket is full: the bytes written, or -1 on error. */
    private long writeOut(Connection c, long length) {
        long done = 0;
        while (done < length) {
            long n = Libc.write(errno, c.fd, done == 0 ? out : out.asSlice(done), length - done);
            if (n < 0) {
                int e = Libc.errno(errno);
                if (e == EINTR) continue;
                return e == EAGAIN ? done : -1;
            }
            done += n;
        }
        return done;
    }

    /** Puts the connection's kept input at the start of {@link #in}. */
    private void restoreInput(Connection c) {
        inLength = 0;
        if (c.keptInput != null) {
            MemorySegment.copy(c.keptInput, 0, in, JAVA_BYTE, 0, c.keptInput.length);
            inLength = c.keptInput.length;
            c.keptInput = null;
        }
    }

    /** Keeps {@code in[from, inLength)} with the connection until its next event. */
    private void keepInput(Connection c, long from) {
        if (from < inLength) c.keptInput = in.asSlice(from, inLength - from).toArray(JAVA_BYTE);
    }

    private void setEvents(Connection c, int events) {
        if (edgeTriggered || c.events == events) return; // edge-triggered: registered for both, once
        event.set(JAVA_INT, EPOLL_EVENTS, events);
        event.set(JAVA_LONG_UNALIGNED, EPOLL_DATA, c.fd);
        if (Libc.epollCtl(errno, epollFd, Libc.EPOLL_CTL_MOD, c.fd, event) < 0) {
            close(c);
            return;
        }
        c.events = events;
    }

    private void close(Connection c) {
        c.closed = true;
        connections[c.fd] = null;
        Libc.close(errno, c.fd); // also takes it out of the epoll set
    }

    private void register(MemorySegment state, MemorySegment registration, int fd) throws IOException {
        registration.set(JAVA_INT, EPOLL_EVENTS, EPOLLIN);
        registration.set(JAVA_LONG_UNALIGNED, EPOLL_DATA, fd);
        check(state, "epoll_ctl", Libc.epollCtl(state, epollFd, Libc.EPOLL_CTL_ADD, fd, registration));
    }

    private static int check(MemorySegment state, String call, int result) throws IOException {
        return ListenSocket.check(state, call, result);
    }

    /** What a connection holds between events. */
    private static final class Connection {
        final int fd;
        int events;
        boolean closing;
        boolean closed;
        long skip;
        byte[] keptInput;
        byte[] pendingOut;
        int pendingFrom;

        Connection(int fd, int events) {
            this.fd = fd;
            this.events = events;
        }
    }
}
