package dev.petrel.server.proxy;

import dev.petrel.http.ParseStatus;
import dev.petrel.server.config.TrustedProxies;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.SelectionStep;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The PROXY protocol step of a selection chain, first in it: the connection must come from a
 * trusted proxy and begin with a valid PROXY header (v1 or v2), within the header timeout; the
 * rest of the chain and the protocol then see the client's address as the proxy reported it. A
 * connection from anyone else, or without a valid header, is closed without a word: it speaks
 * another protocol than the one the server expects on this port, and nothing sent back would help.
 */
public final class ProxyProtocolStep implements SelectionStep {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.proxy");

    private final TrustedProxies trusted;
    private final long timeoutNanos;

    /** Headers only from {@code trusted}, complete within {@code timeout} of accept. */
    public ProxyProtocolStep(TrustedProxies trusted, Duration timeout) {
        if (trusted.isEmpty()) throw new IllegalArgumentException("the PROXY protocol needs the addresses of the trusted proxies");
        this.trusted = trusted;
        this.timeoutNanos = timeout.toNanos();
    }

    @Override
    public Endpoint apply(Endpoint endpoint) throws IOException {
        if (!trusted.trusts(endpoint.remoteAddress().getAddress())) {
            LOG.log(System.Logger.Level.WARNING, "closed a connection from " + endpoint.remoteAddress()
                    + ": PROXY protocol headers are accepted only from the trusted proxies (" + trusted + ")");
            endpoint.close();
            throw new IOException("not a trusted proxy");
        }
        ProxyHeaderParser parser = new ProxyHeaderParser();
        ByteBuffer buffer = ByteBuffer.allocate(512);
        long deadline = System.nanoTime() + timeoutNanos;
        while (true) {
            buffer.flip();
            ParseStatus status = parser.parse(buffer);
            buffer.compact();
            if (status == ParseStatus.COMPLETE) {
                buffer.flip(); // what is left is the client's
                return new ProxiedEndpoint(endpoint, parser.header(), buffer);
            }
            if (status == ParseStatus.ERROR) {
                LOG.log(System.Logger.Level.DEBUG, () -> "closed a connection from " + endpoint.remoteAddress() + ": "
                        + parser.error().reason());
                endpoint.close();
                throw new IOException(parser.error().reason());
            }
            long left = deadline - System.nanoTime();
            int n;
            try {
                if (left <= 0) throw new SocketTimeoutException("no complete PROXY header in time");
                buffer.clear(); // the parser keeps what it took in; the buffer is free again
                n = endpoint.read(buffer, (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(left))));
            } catch (IOException e) {
                endpoint.close();
                throw e;
            }
            if (n < 0) {
                endpoint.close();
                throw new IOException("the connection ended before its PROXY header was complete");
            }
        }
    }
}
