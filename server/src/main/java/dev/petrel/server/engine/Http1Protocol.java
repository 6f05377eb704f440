package dev.petrel.server.engine;

import dev.petrel.http.ByteSink;
import dev.petrel.http.DateCache;
import dev.petrel.http.ResponseHeadEncoder;
import dev.petrel.server.Handler;
import dev.petrel.server.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/** HTTP/1.1 for a listener: an {@link Http1Connection} per connection, a 503 for those turned away. */
public final class Http1Protocol implements Protocol {
    /** Seconds a client turned away is asked to wait before trying again. */
    public static final int RETRY_AFTER_SECONDS = 1;

    private static final byte[] TEXT_PLAIN = "text/plain;charset=UTF-8".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSE = "close".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OVERLOAD_TEXT = "Service Unavailable: the server is at its connection limit; try again shortly\n"
            .getBytes(StandardCharsets.US_ASCII);

    private final Handler handler;
    private final ServerConfig config;
    private final DateCache dates;
    private final BufferPool buffers;

    /** Serves {@code handler} with {@code config}, dating responses from {@code dates}. */
    public Http1Protocol(Handler handler, ServerConfig config, DateCache dates) {
        this.handler = Objects.requireNonNull(handler, "handler");
        this.config = Objects.requireNonNull(config, "config");
        this.dates = Objects.requireNonNull(dates, "dates");
        this.buffers = BufferPool.forProcessors(Http1Connection.responseBufferBytes(config));
    }

    @Override
    public ProtocolConnection open(Endpoint endpoint) {
        return new Http1Connection(endpoint, handler, config, dates, buffers);
    }

    @Override
    public boolean mayBlock() {
        return handler.mayBlock();
    }

    @Override
    public byte[] overloadAnswer() {
        ByteSink sink = new ByteSink(256);
        ResponseHeadEncoder.statusLine(503, sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.DATE, dates.bytes(), sink);
        ResponseHeadEncoder.field("Retry-After", Integer.toString(RETRY_AFTER_SECONDS), sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONTENT_TYPE, TEXT_PLAIN, sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONTENT_LENGTH, OVERLOAD_TEXT.length, sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONNECTION, CLOSE, sink);
        ResponseHeadEncoder.end(sink);
        sink.write(OVERLOAD_TEXT);
        return Arrays.copyOf(sink.array(), sink.length());
    }
}
