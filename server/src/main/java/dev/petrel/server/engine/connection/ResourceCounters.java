package dev.petrel.server.engine.connection;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts what the server takes from its pools and from native memory and what it gives back,
 * when the JVM runs with {@code -Dpetrel.resourceAccounting=true} (the test suite and the lab's
 * soak do). Once every listener has stopped, each count must be back at zero: a buffer never
 * given back is a path that drops it (harmless for an array, a late free for native memory), and
 * a TLS engine never released holds its native {@code SSL} until the process ends. Netty's
 * {@code ResourceLeakDetector} and Jetty's buffer pool accounting answer the same question.
 *
 * <p>Off, which is the default, the flag is a constant the JIT folds away, so the pools' fast
 * paths cost nothing more. On, every take and give-back is one atomic add. Counts are for the
 * whole JVM, not per server: a test that runs two servers is checked once both have stopped.
 * Read them through {@link dev.petrel.server.admin.ResourceAccounting}.
 */
public final class ResourceCounters {
    /** Whether counting is on, for this JVM's life. */
    public static final boolean ON = Boolean.getBoolean("petrel.resourceAccounting");

    /** What is counted. */
    public enum Resource {
        /** Listeners bound and not yet stopped: while any is, the others may be in use. */
        LISTENERS("listeners"),
        /** Response buffers ({@link dev.petrel.server.engine.exchange.BufferPool}). */
        RESPONSE_BUFFERS("response buffers"),
        /** Read buffers ({@link InputBufferPool}), small and large. */
        INPUT_BUFFERS("input buffers"),
        /** HTTP/1.1's per-exchange machinery, pooled. */
        EXCHANGE_PARTS("HTTP/1.1 exchange parts"),
        /** TLS record buffers, heap or direct. */
        TLS_RECORD_BUFFERS("TLS record buffers"),
        /** TLS engines made and not released: with BoringSSL, each holds a native {@code SSL}. */
        TLS_ENGINES("TLS engines"),
        /** Sets of TLS engines (one per certificate configuration) not closed: with BoringSSL, a native {@code SSL_CTX}. */
        TLS_CONTEXTS("TLS contexts"),
        /** WebSocket permessage-deflate compressor and inflater pairs not ended: native zlib streams. */
        WEBSOCKET_DEFLATE("WebSocket deflate contexts");

        private final String label;

        Resource(String label) {
            this.label = label;
        }

        /** How reports name it. */
        public String label() {
            return label;
        }
    }

    private static final AtomicLongArray OUTSTANDING = new AtomicLongArray(Resource.values().length);
    private static final AtomicLongArray TAKEN = new AtomicLongArray(Resource.values().length);

    private ResourceCounters() {}

    /** One {@code resource} taken; a no-op unless counting is {@link #ON}. */
    public static void take(Resource resource) {
        if (!ON) return;
        OUTSTANDING.incrementAndGet(resource.ordinal());
        TAKEN.incrementAndGet(resource.ordinal());
    }

    /** One {@code resource} given back; a no-op unless counting is {@link #ON}. */
    public static void giveBack(Resource resource) {
        if (!ON) return;
        OUTSTANDING.decrementAndGet(resource.ordinal());
    }

    /** How many of {@code resource} are taken and not given back (negative: given back twice). */
    public static long outstanding(Resource resource) {
        return OUTSTANDING.get(resource.ordinal());
    }

    /** How many of {@code resource} were taken in all. */
    public static long taken(Resource resource) {
        return TAKEN.get(resource.ordinal());
    }

    /** Every resource's outstanding count, in declaration order. */
    public static Map<Resource, Long> outstanding() {
        Map<Resource, Long> all = new LinkedHashMap<>();
        for (Resource resource : Resource.values()) all.put(resource, outstanding(resource));
        return all;
    }
}
