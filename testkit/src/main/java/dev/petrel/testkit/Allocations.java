package dev.petrel.testkit;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The bytes the current thread has allocated, from {@code com.sun.management.ThreadMXBean}. Looked
 * up at run time: the codec modules whose tests use it do not read {@code jdk.management}, and their
 * tests run on the class path, where every module is there to be found.
 */
public final class Allocations {
    private static final Object THREADS;
    private static final MethodHandle ALLOCATED;

    static {
        try {
            Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
            THREADS = factory.getMethod("getThreadMXBean").invoke(null);
            Class<?> bean = Class.forName("com.sun.management.ThreadMXBean");
            ALLOCATED = MethodHandles.publicLookup()
                    .findVirtual(bean, "getCurrentThreadAllocatedBytes", MethodType.methodType(long.class))
                    .asType(MethodType.methodType(long.class, Object.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Allocations() {}

    /** The bytes allocated so far by the calling thread. */
    public static long currentThread() {
        try {
            return (long) ALLOCATED.invokeExact(THREADS);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
