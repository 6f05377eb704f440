package dev.petrel.bench.floor;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteOrder;
import java.util.Locale;

/**
 * The Linux socket and epoll calls of libc, through {@link Linker#nativeLinker()} downcalls: no JNI and
 * no C of our own. Each call's errno is captured ({@link Linker.Option#captureCallState}) into a segment
 * of {@link #ERRNO_STATE} the caller passes first, since the JVM may run code between the call and a read
 * of errno.
 *
 * <p><b>Critical calls.</b> {@link Linker.Option#critical(boolean) critical(false)} skips the thread's
 * transition out of Java and back (and its safepoint poll): a call that cannot block may take it, a call
 * that can may not, for while it runs no safepoint (no GC, no deoptimization) can happen anywhere in the
 * JVM. So: {@code read}, {@code write}, {@code accept4} on non-blocking sockets, {@code epoll_ctl},
 * {@code setsockopt}, {@code shutdown} and {@code close} (a socket without SO_LINGER closes without
 * waiting) are critical; {@code epoll_wait}, which blocks until an event, is not; the start-up calls
 * gain nothing from it and are not. {@code -Dpetrel.floor.critical=false} makes none critical, to
 * measure what it is worth. No call is given heap memory: every buffer is native.
 *
 * <p>Constants are those of Linux's generic ABI (x86_64 and aarch64 agree on all of them).
 */
final class Libc {
    /** Whether the non-blocking calls are linked critical (see above); read once, at class load. */
    static final boolean CRITICAL = !"false".equals(System.getProperty("petrel.floor.critical"));

    static final int AF_INET = 2;
    static final int SOCK_STREAM = 1;
    static final int SOCK_NONBLOCK = 0x800;
    static final int SOCK_CLOEXEC = 0x80000;
    static final int SOL_SOCKET = 1;
    static final int SO_REUSEADDR = 2;
    static final int IPPROTO_TCP = 6;
    static final int TCP_NODELAY = 1;
    static final int SHUT_WR = 1;
    static final int INADDR_LOOPBACK = 0x7f000001;

    static final int EPOLL_CLOEXEC = 0x80000;
    static final int EPOLL_CTL_ADD = 1;
    static final int EPOLL_CTL_MOD = 3;
    static final int EPOLLIN = 0x1;
    static final int EPOLLOUT = 0x4;
    static final int EPOLLERR = 0x8;
    static final int EPOLLHUP = 0x10;
    static final int EPOLLRDHUP = 0x2000;
    static final int EPOLLET = 1 << 31;
    static final int EFD_NONBLOCK = 0x800;
    static final int EFD_CLOEXEC = 0x80000;

    static final int EINTR = 4;
    static final int EAGAIN = 11; // also EWOULDBLOCK
    static final int ECONNABORTED = 103;

    /** A 16-bit and a 32-bit value in network byte order. */
    static final ValueLayout.OfShort NET_SHORT = JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfInt NET_INT = JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN);

    /** {@code struct sockaddr_in}: family in host order, port and address in network order, 8 bytes of zero. */
    static final StructLayout SOCKADDR_IN = MemoryLayout.structLayout(
            JAVA_SHORT.withName("sin_family"),
            NET_SHORT.withName("sin_port"),
            NET_INT.withName("sin_addr"),
            MemoryLayout.sequenceLayout(8, JAVA_BYTE).withName("sin_zero"));
    static final long SIN_FAMILY = SOCKADDR_IN.byteOffset(PathElement.groupElement("sin_family"));
    static final long SIN_PORT = SOCKADDR_IN.byteOffset(PathElement.groupElement("sin_port"));
    static final long SIN_ADDR = SOCKADDR_IN.byteOffset(PathElement.groupElement("sin_addr"));

    /**
     * {@code struct epoll_event}: {@code uint32_t events; epoll_data_t data;}. The kernel declares it
     * packed on x86_64 (12 bytes, data unaligned at 4) and naturally aligned elsewhere (16 bytes, data at 8).
     */
    static final StructLayout EPOLL_EVENT = epollEvent();
    static final long EPOLL_EVENTS = EPOLL_EVENT.byteOffset(PathElement.groupElement("events"));
    static final long EPOLL_DATA = EPOLL_EVENT.byteOffset(PathElement.groupElement("data"));

    /** {@code 127.0.0.1:port} as a {@code struct sockaddr_in} in {@code arena}. */
    static MemorySegment loopback(Arena arena, int port) {
        MemorySegment address = arena.allocate(SOCKADDR_IN); // zeroed, sin_zero included
        address.set(JAVA_SHORT, SIN_FAMILY, (short) AF_INET);
        address.set(NET_SHORT, SIN_PORT, (short) port);
        address.set(NET_INT, SIN_ADDR, INADDR_LOOPBACK);
        return address;
    }

    /** Where a call's errno is captured. */
    static final StructLayout ERRNO_STATE = Linker.Option.captureStateLayout();
    private static final long ERRNO = ERRNO_STATE.byteOffset(PathElement.groupElement("errno"));

    private static final Linker LINKER = Linker.nativeLinker();

    private static final MethodHandle SOCKET = link("socket", false, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle SETSOCKOPT =
            link("setsockopt", true, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT);
    private static final MethodHandle BIND = link("bind", false, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT);
    private static final MethodHandle LISTEN = link("listen", false, JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle GETSOCKNAME = link("getsockname", false, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS);
    private static final MethodHandle ACCEPT4 = link("accept4", true, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT);
    private static final MethodHandle SHUTDOWN = link("shutdown", true, JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle CLOSE = link("close", true, JAVA_INT, JAVA_INT);
    private static final MethodHandle READ = link("read", true, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG);
    private static final MethodHandle WRITE = link("write", true, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG);
    private static final MethodHandle EPOLL_CREATE1 = link("epoll_create1", false, JAVA_INT, JAVA_INT);
    private static final MethodHandle EPOLL_CTL = link("epoll_ctl", true, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS);
    private static final MethodHandle EPOLL_WAIT = link("epoll_wait", false, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT);
    private static final MethodHandle EVENTFD = link("eventfd", false, JAVA_INT, JAVA_INT, JAVA_INT);

    private Libc() {}

    /** The errno the last call given {@code state} left there. */
    static int errno(MemorySegment state) {
        return state.get(JAVA_INT, ERRNO);
    }

    static int socket(MemorySegment state, int domain, int type, int protocol) {
        try {
            return (int) SOCKET.invokeExact(state, domain, type, protocol);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int setsockopt(MemorySegment state, int fd, int level, int name, MemorySegment value, int length) {
        try {
            return (int) SETSOCKOPT.invokeExact(state, fd, level, name, value, length);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int bind(MemorySegment state, int fd, MemorySegment address, int length) {
        try {
            return (int) BIND.invokeExact(state, fd, address, length);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int listen(MemorySegment state, int fd, int backlog) {
        try {
            return (int) LISTEN.invokeExact(state, fd, backlog);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int getsockname(MemorySegment state, int fd, MemorySegment address, MemorySegment length) {
        try {
            return (int) GETSOCKNAME.invokeExact(state, fd, address, length);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int accept4(MemorySegment state, int fd, MemorySegment address, MemorySegment length, int flags) {
        try {
            return (int) ACCEPT4.invokeExact(state, fd, address, length, flags);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int shutdown(MemorySegment state, int fd, int how) {
        try {
            return (int) SHUTDOWN.invokeExact(state, fd, how);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int close(MemorySegment state, int fd) {
        try {
            return (int) CLOSE.invokeExact(state, fd);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static long read(MemorySegment state, int fd, MemorySegment buffer, long count) {
        try {
            return (long) READ.invokeExact(state, fd, buffer, count);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static long write(MemorySegment state, int fd, MemorySegment buffer, long count) {
        try {
            return (long) WRITE.invokeExact(state, fd, buffer, count);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int epollCreate1(MemorySegment state, int flags) {
        try {
            return (int) EPOLL_CREATE1.invokeExact(state, flags);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int epollCtl(MemorySegment state, int epfd, int op, int fd, MemorySegment event) {
        try {
            return (int) EPOLL_CTL.invokeExact(state, epfd, op, fd, event);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int epollWait(MemorySegment state, int epfd, MemorySegment events, int maxEvents, int timeoutMillis) {
        try {
            return (int) EPOLL_WAIT.invokeExact(state, epfd, events, maxEvents, timeoutMillis);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int eventfd(MemorySegment state, int initial, int flags) {
        try {
            return (int) EVENTFD.invokeExact(state, initial, flags);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    /** Adds one to the eventfd {@code fd}, from any thread: wakes a loop that waits on it to see that it should stop. */
    static void signal(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            write(arena.allocate(ERRNO_STATE), fd, arena.allocateFrom(JAVA_LONG, 1L), Long.BYTES);
        }
    }

    /** One line for a failed start-up call (the number, not strerror's text: one call fewer to link). */
    static String failed(String call, int errno) {
        return call + " failed, errno " + errno;
    }

    private static MethodHandle link(String name, boolean critical, MemoryLayout result, MemoryLayout... arguments) {
        MemorySegment symbol = LINKER.defaultLookup().findOrThrow(name);
        FunctionDescriptor descriptor = FunctionDescriptor.of(result, arguments);
        Linker.Option errno = Linker.Option.captureCallState("errno");
        return critical && CRITICAL
                ? LINKER.downcallHandle(symbol, descriptor, errno, Linker.Option.critical(false))
                : LINKER.downcallHandle(symbol, descriptor, errno);
    }

    private static StructLayout epollEvent() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        boolean packed = arch.equals("amd64") || arch.equals("x86_64");
        return packed
                ? MemoryLayout.structLayout(JAVA_INT.withName("events"), JAVA_LONG_UNALIGNED.withName("data"))
                : MemoryLayout.structLayout(JAVA_INT.withName("events"), MemoryLayout.paddingLayout(4),
                        JAVA_LONG.withName("data"));
    }

    /** A downcall's invokeExact declares Throwable; a linked libc call throws nothing. */
    private static AssertionError linkageFailure(Throwable t) {
        if (t instanceof RuntimeException e) throw e;
        if (t instanceof Error e) throw e;
        return new AssertionError(t);
    }
}
