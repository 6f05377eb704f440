package dev.petrel.server.ajp;

import dev.petrel.server.Handler;
import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.Protocol;
import dev.petrel.server.engine.connection.ProtocolConnection;
import dev.petrel.server.engine.exchange.BufferPool;
import dev.petrel.server.engine.exchange.ExchangeObserver;
import java.util.Objects;

/**
 * AJP/1.3 for a listener behind Apache httpd (mod_jk, mod_proxy_ajp): an {@link AjpConnection}
 * per connection, serving the same handler as the HTTP listeners.
 */
public final class AjpProtocol implements Protocol {
    private final Handler handler;
    private final ExchangeObserver observer;
    private final ServerConfig config;
    private final AjpConfig ajp;
    private final AjpAccess access;
    private final BufferPool buffers;
    private final boolean handlerMayBlock;

    /**
     * Serves {@code handler} with the limits and timeouts of {@code config} and the AJP settings of
     * {@code ajp}, telling {@code observer} of each exchange.
     */
    public AjpProtocol(Handler handler, ExchangeObserver observer, ServerConfig config, AjpConfig ajp) {
        this.handler = Objects.requireNonNull(handler, "handler");
        this.observer = Objects.requireNonNull(observer, "observer");
        this.config = Objects.requireNonNull(config, "config");
        this.ajp = Objects.requireNonNull(ajp, "ajp");
        this.access = new AjpAccess(ajp);
        this.buffers = BufferPool.forProcessors(AjpStream.bufferBytes(ajp.packetSize()));
        this.handlerMayBlock = handler.mayBlock();
    }

    @Override
    public ProtocolConnection open(Endpoint endpoint) {
        return new AjpConnection(endpoint, handler, observer, handlerMayBlock, config, ajp, access, buffers);
    }

    /**
     * Nothing: a connection turned away for overload is closed without a word, since an answer
     * needs the front end's request first. mod_jk and mod_proxy_ajp then answer the client
     * {@code 503} themselves, or try another backend.
     */
    @Override
    public byte[] overloadAnswer() {
        return new byte[0];
    }
}
