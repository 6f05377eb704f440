package dev.petrel.server.http1;

import dev.petrel.http.DateCache;
import dev.petrel.http.RequestParser;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.engine.connection.ConnectionInput;
import dev.petrel.server.engine.connection.ConnectionLifecycle;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.ResourceCounters;
import dev.petrel.server.engine.connection.SlotPool;
import dev.petrel.server.engine.exchange.BodyWaitLimits;
import dev.petrel.server.engine.exchange.BufferPool;
import dev.petrel.server.engine.exchange.Exchange;
import dev.petrel.server.engine.exchange.ExchangeObserver;
import dev.petrel.server.engine.exchange.ExchangeRequest;
import dev.petrel.server.engine.exchange.ExchangeResponse;

/**
 * What an HTTP/1.1 connection needs only while a request is in flight: the head parser, the
 * stream with its body, and the exchange with its request and response, about thirty objects and 3 KB
 * in all. A connection takes a set from its listener's {@link Pool} when the first byte of a head
 * arrives and gives it back when the exchange is over and nothing more is buffered, so that an
 * idle keep-alive connection holds none of it; busy connections reuse the sets instead of making
 * their own, as Tomcat recycles its processors.
 *
 * <p>The parts are {@linkplain #bind bound} to the connection that took them; the pool's
 * compare-and-set orders what one connection left in them before the next one reads it.
 */
final class Http1ExchangeParts {
    final RequestParser parser;
    final RequestBody body;
    final Http1Stream stream;
    final Exchange exchange;
    final ExchangeRequest request;
    final ExchangeResponse response;
    private final Pool pool;

    private Http1ExchangeParts(Pool pool, ServerConfig config, DateCache dates, BufferPool buffers, ExchangeObserver observer) {
        this.pool = pool;
        this.parser = new RequestParser(config.limits());
        this.body = new RequestBody(config.limits(), new BodyWaitLimits(config));
        this.stream = new Http1Stream(dates, body);
        this.exchange = new Exchange(stream, buffers, "HTTP/1.1", observer);
        this.request = exchange.request();
        this.response = exchange.response();
    }

    /** Serves the exchanges that follow on {@code connection}. */
    void bind(Http1Connection connection, Endpoint endpoint, ConnectionInput input, ConnectionLifecycle lifecycle) {
        stream.bind(connection, endpoint, input, lifecycle);
    }

    /** Forgets the last connection's request, so that nothing of it stays reachable from the pool. */
    void unbind() {
        parser.reset();
        stream.bind(null, null, null, null);
    }

    /** The sets of one listener, each made with its configuration, dating responses from its clock. */
    static final class Pool extends SlotPool<Http1ExchangeParts> {
        private final ServerConfig config;
        private final DateCache dates;
        private final BufferPool buffers;
        private final ExchangeObserver observer;

        /**
         * A pool of at most {@code capacity} free sets: when more requests are in flight at once
         * (blocking handlers on many workers), the sets beyond are made and left to the collector.
         * Their exchanges are told to {@code observer}.
         */
        Pool(ServerConfig config, DateCache dates, BufferPool buffers, int capacity, ExchangeObserver observer) {
            super(capacity, ResourceCounters.Resource.EXCHANGE_PARTS);
            this.observer = observer;
            this.config = config;
            this.dates = dates;
            this.buffers = buffers;
        }

        /**
         * A pool sized for the machine: on an event loop one set serves the requests it runs inline
         * one after another; each worker or thread with a request in flight holds one more.
         */
        static Pool forProcessors(ServerConfig config, DateCache dates, BufferPool buffers, ExchangeObserver observer) {
            return new Pool(config, dates, buffers, 4 * capacityForProcessors(), observer);
        }

        @Override
        protected Http1ExchangeParts allocate() {
            return new Http1ExchangeParts(this, config, dates, buffers, observer);
        }

        @Override
        protected boolean belongs(Http1ExchangeParts parts) {
            return parts.pool == this;
        }
    }
}
