package dev.petrel.server.it;

import dev.petrel.server.Handler;
import dev.petrel.server.transport.TransportKind;

/**
 * The ways a handler can be served, for the integration suite: every {@link TransportKind},
 * plus {@code nio} with the handler marked {@linkplain Handler#nonBlocking non-blocking}, which
 * runs it inline on the event loop instead of on a virtual thread.
 */
enum Transport {
    BLOCKING(TransportKind.BLOCKING, false),
    VIRTUAL(TransportKind.VIRTUAL, false),
    NIO(TransportKind.NIO, false),
    NIO_INLINE(TransportKind.NIO, true);

    private final TransportKind kind;
    private final boolean inline;

    Transport(TransportKind kind, boolean inline) {
        this.kind = kind;
        this.inline = inline;
    }

    TransportKind kind() {
        return kind;
    }

    /** {@code handler} as this variant serves it. */
    Handler handler(Handler handler) {
        return inline ? Handler.nonBlocking(handler) : handler;
    }

    @Override
    public String toString() {
        return inline ? kind.cliName() + "-inline" : kind.cliName();
    }
}
