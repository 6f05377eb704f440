package dev.petrel.server.it;

import dev.petrel.server.Handler;
import dev.petrel.server.config.TransportKind;

/**
 * The ways a handler can be served, for the integration suite: every {@link TransportKind},
 * plus {@code nio} with the handler marked {@linkplain Handler#nonBlocking non-blocking}, which
 * runs it inline on the event loop instead of on a virtual thread; each over plain HTTP and over
 * HTTPS (the server then listens for HTTPS only, and {@link RawClient} speaks TLS to it).
 */
enum Transport {
    BLOCKING(TransportKind.BLOCKING, false, false),
    VIRTUAL(TransportKind.VIRTUAL, false, false),
    NIO(TransportKind.NIO, false, false),
    NIO_INLINE(TransportKind.NIO, true, false),
    BLOCKING_TLS(TransportKind.BLOCKING, false, true),
    VIRTUAL_TLS(TransportKind.VIRTUAL, false, true),
    NIO_TLS(TransportKind.NIO, false, true),
    NIO_INLINE_TLS(TransportKind.NIO, true, true);

    private final TransportKind kind;
    private final boolean inline;
    private final boolean tls;

    Transport(TransportKind kind, boolean inline, boolean tls) {
        this.kind = kind;
        this.inline = inline;
        this.tls = tls;
    }

    TransportKind kind() {
        return kind;
    }

    /** Whether the server speaks HTTPS. */
    boolean tls() {
        return tls;
    }

    /** {@code handler} as this variant serves it. */
    Handler handler(Handler handler) {
        return inline ? Handler.nonBlocking(handler) : handler;
    }

    @Override
    public String toString() {
        return kind.cliName() + (inline ? "-inline" : "") + (tls ? "+tls" : "");
    }
}
