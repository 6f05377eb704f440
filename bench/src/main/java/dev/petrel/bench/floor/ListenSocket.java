package dev.petrel.bench.floor;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A listening TCP socket on {@code 127.0.0.1:port} made through {@link Libc}, as dummy.c makes its own:
 * SO_REUSEADDR, the {@link FloorServer#BACKLOG}, close-on-exec; non-blocking or not.
 *
 * @param fd its file descriptor
 * @param port the port it listens on (the kernel's choice when 0 was asked)
 */
record ListenSocket(int fd, int port) {
    static ListenSocket open(int port, boolean nonBlocking) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(Libc.ERRNO_STATE);
            int fd = check(state, "socket", Libc.socket(state, Libc.AF_INET,
                    Libc.SOCK_STREAM | Libc.SOCK_CLOEXEC | (nonBlocking ? Libc.SOCK_NONBLOCK : 0), 0));
            try {
                MemorySegment on = arena.allocateFrom(JAVA_INT, 1);
                Libc.setsockopt(state, fd, Libc.SOL_SOCKET, Libc.SO_REUSEADDR, on, (int) on.byteSize());
                MemorySegment address = Libc.loopback(arena, port);
                check(state, "bind " + FloorServer.HOST + ":" + port, Libc.bind(state, fd, address, (int) address.byteSize()));
                check(state, "listen", Libc.listen(state, fd, FloorServer.BACKLOG));
                MemorySegment length = arena.allocateFrom(JAVA_INT, (int) address.byteSize());
                check(state, "getsockname", Libc.getsockname(state, fd, address, length));
                return new ListenSocket(fd, Short.toUnsignedInt(address.get(Libc.NET_SHORT, Libc.SIN_PORT)));
            } catch (IOException e) {
                Libc.close(state, fd);
                throw e;
            }
        }
    }

    /** {@code result}, or an IOException naming the call and its errno when it is negative. */
    static int check(MemorySegment state, String call, int result) throws IOException {
        if (result < 0) throw new IOException(Libc.failed(call, Libc.errno(state)));
        return result;
    }
}
