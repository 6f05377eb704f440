package dev.petrel.bench.floor;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * One io_uring instance through the FFM API, without liburing: {@code io_uring_setup} and
 * {@code io_uring_enter} through libc's {@code syscall}, the rings mapped with {@code mmap} (one mapping:
 * IORING_FEAT_SINGLE_MMAP, Linux 5.4+), submission and completion entries written and read by hand.
 *
 * <p>The rings are shared with the kernel: the submission tail is published with a release store after
 * the entry is written, the completion tail read with an acquire load before the entries, and the
 * completion head published with a release store once they are consumed (what liburing does with
 * {@code smp_store_release} and {@code smp_load_acquire}). One thread only.
 *
 * <p>Offsets of {@code struct io_uring_params} (120 bytes), {@code io_uring_sqe} (64) and
 * {@code io_uring_cqe} (16) are those of {@code <linux/io_uring.h>}, the same on every architecture.
 */
final class IoUring implements AutoCloseable {
    static final byte OP_ACCEPT = 13;
    static final byte OP_READ = 22;
    static final byte OP_SEND = 26;
    static final byte OP_RECV = 27;

    private static final long SYS_IO_URING_SETUP = 425;
    private static final long SYS_IO_URING_ENTER = 426;
    private static final long IORING_ENTER_GETEVENTS = 1;
    private static final int IORING_FEAT_SINGLE_MMAP = 1;
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_SHARED_POPULATE = 0x01 | 0x8000;
    private static final long IORING_OFF_SQES = 0x10000000L;

    // struct io_uring_params
    private static final long PARAMS_SIZE = 120;
    private static final long P_SQ_ENTRIES = 0;
    private static final long P_CQ_ENTRIES = 4;
    private static final long P_FEATURES = 20;
    private static final long P_SQ_OFF = 40; // struct io_sqring_offsets: head, tail, ring_mask, ring_entries, flags, dropped, array
    private static final long P_CQ_OFF = 80; // struct io_cqring_offsets: head, tail, ring_mask, ring_entries, overflow, cqes
    // struct io_uring_sqe
    static final long SQE_SIZE = 64;
    private static final long SQE_OPCODE = 0;
    private static final long SQE_FD = 4;
    private static final long SQE_OFF = 8;
    private static final long SQE_ADDR = 16;
    private static final long SQE_LEN = 24;
    private static final long SQE_OP_FLAGS = 28;
    private static final long SQE_USER_DATA = 32;
    // struct io_uring_cqe
    private static final long CQE_SIZE = 16;

    private static final VarHandle INT = JAVA_INT.varHandle(); // (segment, offset): acquire and release access

    private static final MethodHandle SYSCALL3;
    private static final MethodHandle SYSCALL6;
    private static final MethodHandle MMAP;
    private static final MethodHandle MUNMAP;

    static {
        Linker linker = Linker.nativeLinker();
        MemorySegment syscall = linker.defaultLookup().findOrThrow("syscall");
        Linker.Option errno = Linker.Option.captureCallState("errno");
        // syscall(long number, ...): every variadic argument passed as a long, which is what it reads
        SYSCALL3 = linker.downcallHandle(syscall, FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
                errno, Linker.Option.firstVariadicArg(1));
        SYSCALL6 = linker.downcallHandle(syscall,
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
                errno, Linker.Option.firstVariadicArg(1));
        MMAP = linker.downcallHandle(linker.defaultLookup().findOrThrow("mmap"),
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG), errno);
        MUNMAP = linker.downcallHandle(linker.defaultLookup().findOrThrow("munmap"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    }

    private final MemorySegment errno;
    private final int ringFd;
    private final MemorySegment rings;
    private final MemorySegment sqes;
    private final long sqHead;
    private final long sqTail;
    private final int sqMask;
    private final int sqEntries;
    private final long cqHead;
    private final long cqTail;
    private final int cqMask;
    private final long cqes;
    private int tail; // our copy of the submission tail
    private int toSubmit;
    private int head; // our copy of the completion head

    /** Sets up a ring of {@code entries} submissions; {@code arena} holds what the loop's calls need. */
    IoUring(int entries, Arena arena) throws IOException {
        errno = arena.allocate(Libc.ERRNO_STATE);
        MemorySegment params = arena.allocate(PARAMS_SIZE, 8);
        long fd = syscall3(SYS_IO_URING_SETUP, entries, params.address());
        if (fd < 0) throw new IOException(Libc.failed("io_uring_setup", Libc.errno(errno)));
        ringFd = (int) fd;
        if ((params.get(JAVA_INT, P_FEATURES) & IORING_FEAT_SINGLE_MMAP) == 0) {
            throw new IOException("io_uring without IORING_FEAT_SINGLE_MMAP (Linux 5.4+) is not supported");
        }
        sqEntries = params.get(JAVA_INT, P_SQ_ENTRIES);
        int cqEntries = params.get(JAVA_INT, P_CQ_ENTRIES);
        long sqArray = params.get(JAVA_INT, P_SQ_OFF + 24);
        long cqesOffset = params.get(JAVA_INT, P_CQ_OFF + 20);
        long ringSize = Math.max(sqArray + 4L * sqEntries, cqesOffset + CQE_SIZE * cqEntries);
        rings = map(ringSize, 0);
        sqes = map(SQE_SIZE * sqEntries, IORING_OFF_SQES);
        sqHead = params.get(JAVA_INT, P_SQ_OFF);
        sqTail = params.get(JAVA_INT, P_SQ_OFF + 4);
        sqMask = rings.get(JAVA_INT, params.get(JAVA_INT, P_SQ_OFF + 8));
        cqHead = params.get(JAVA_INT, P_CQ_OFF);
        cqTail = params.get(JAVA_INT, P_CQ_OFF + 4);
        cqMask = rings.get(JAVA_INT, params.get(JAVA_INT, P_CQ_OFF + 8));
        cqes = cqesOffset;
        for (int i = 0; i < sqEntries; i++) rings.set(JAVA_INT, sqArray + 4L * i, i); // entry i in slot i, always
        tail = (int) INT.getAcquire(rings, sqTail);
        head = (int) INT.getAcquire(rings, cqHead);
    }

    /** Queues an operation on native memory at {@code address}; submitted at the next {@link #submitAndWait()}. */
    void prepare(byte opcode, int fd, long address, long length, long offset, int opFlags, long userData)
            throws IOException {
        if (tail - (int) INT.getAcquire(rings, sqHead) == sqEntries) submit(0); // full: hand the kernel what we have
        long sqe = SQE_SIZE * (tail & sqMask);
        sqes.asSlice(sqe, SQE_SIZE).fill((byte) 0);
        sqes.set(JAVA_BYTE, sqe + SQE_OPCODE, opcode);
        sqes.set(JAVA_INT, sqe + SQE_FD, fd);
        sqes.set(JAVA_LONG, sqe + SQE_OFF, offset);
        sqes.set(JAVA_LONG, sqe + SQE_ADDR, address);
        sqes.set(JAVA_INT, sqe + SQE_LEN, (int) length);
        sqes.set(JAVA_INT, sqe + SQE_OP_FLAGS, opFlags);
        sqes.set(JAVA_LONG, sqe + SQE_USER_DATA, userData);
        tail++;
        INT.setRelease(rings, sqTail, tail);
        toSubmit++;
    }

    /** Submits what is queued and waits for at least one completion. */
    void submitAndWait() throws IOException {
        submit(1);
    }

    /** Calls {@code consumer} for each completion there is, then frees their slots. */
    int complete(Completions consumer) throws IOException {
        int cqTailNow = (int) INT.getAcquire(rings, cqTail);
        int n = 0;
        while (head != cqTailNow) {
            long cqe = cqes + CQE_SIZE * (head & cqMask);
            long userData = rings.get(JAVA_LONG, cqe);
            int res = rings.get(JAVA_INT, cqe + 8);
            head++;
            n++;
            consumer.completed(userData, res);
        }
        INT.setRelease(rings, cqHead, head);
        return n;
    }

    @Override
    public void close() {
        try {
            int ignored = (int) MUNMAP.invokeExact(sqes, sqes.byteSize());
            ignored = (int) MUNMAP.invokeExact(rings, rings.byteSize());
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
        Libc.close(errno, ringFd);
    }

    private void submit(int minComplete) throws IOException {
        for (;;) {
            long done = syscall6(SYS_IO_URING_ENTER, ringFd, toSubmit, minComplete,
                    minComplete > 0 ? IORING_ENTER_GETEVENTS : 0, 0, 0);
            if (done >= 0) {
                toSubmit -= (int) done;
                return;
            }
            int e = Libc.errno(errno);
            if (e == Libc.EINTR) continue;
            if (e == Libc.EAGAIN || e == 16 /* EBUSY: completions first */) return;
            throw new IOException(Libc.failed("io_uring_enter", e));
        }
    }

    private MemorySegment map(long size, long offset) throws IOException {
        try {
            MemorySegment at = (MemorySegment) MMAP.invokeExact(errno, MemorySegment.NULL, size, PROT_READ_WRITE,
                    MAP_SHARED_POPULATE, ringFd, offset);
            if (at.address() == -1L) throw new IOException(Libc.failed("mmap", Libc.errno(errno)));
            return at.reinterpret(size);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    private long syscall3(long number, long a, long b) {
        try {
            return (long) SYSCALL3.invokeExact(errno, number, a, b);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    private long syscall6(long number, long a, long b, long c, long d, long e, long f) {
        try {
            return (long) SYSCALL6.invokeExact(errno, number, a, b, c, d, e, f);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** What a completion's user data and result go to. */
    @FunctionalInterface
    interface Completions {
        void completed(long userData, int result) throws IOException;
    }
}
