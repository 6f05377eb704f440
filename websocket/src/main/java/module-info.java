/**
 * Petrel's WebSocket codec, pure over bytes: frames decoded into whole messages and control
 * frames and messages encoded into frames (RFC 6455), the permessage-deflate extension with its
 * negotiation (RFC 7692), and the opening handshake's pure parts (the accept key, the
 * subprotocol choice). No sockets, no threads, no clocks; only {@code java.base}.
 */
module dev.petrel.websocket {
    exports dev.petrel.websocket;
}
