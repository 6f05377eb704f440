package dev.petrel.tomcat;

import dev.petrel.http.HeaderFields;
import dev.petrel.server.Detached;
import dev.petrel.server.TlsDetails;
import dev.petrel.server.engine.exchange.ExchangeResponse;
import jakarta.servlet.RequestDispatcher;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.coyote.AbstractProcessor;
import org.apache.coyote.ActionCode;
import org.apache.coyote.Adapter;
import org.apache.coyote.ContinueResponseTiming;
import org.apache.coyote.ErrorState;
import org.apache.coyote.Request;
import org.apache.coyote.RequestInfo;
import org.apache.coyote.Response;
import org.apache.coyote.UpgradeToken;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;
import org.apache.tomcat.util.ExceptionUtils;
import org.apache.tomcat.util.buf.ByteChunk;
import org.apache.tomcat.util.http.MimeHeaders;
import org.apache.tomcat.util.net.AbstractEndpoint.Handler.SocketState;
import org.apache.tomcat.util.net.ServletConnectionImpl;
import org.apache.tomcat.util.net.SocketEvent;
import org.apache.tomcat.util.net.SocketWrapperBase;

/**
 * One Petrel exchange as Catalina sees it: a Coyote processor whose request is filled from
 * Petrel's request and whose response is written through Petrel's. Petrel has parsed, limited and
 * framed the exchange already, so what is left here is Coyote's contract: the actions Catalina
 * asks for (commit, flush, close, available, attributes, async), and Servlet async, which
 * {@link AbstractProcessor}'s state machine drives as for Tomcat's own HTTP/2 streams.
 *
 * <p>As Tomcat's {@code StreamProcessor}, it has no socket: events that Tomcat's processors send
 * to their socket run here on the protocol's executor, under this processor's lock. An exchange
 * that goes async is {@linkplain dev.petrel.server.Response#detach detached} from Petrel's
 * handler and completed when the state machine is done with it.
 */
final class PetrelProcessor extends AbstractProcessor {
    private static final Log LOG = LogFactory.getLog(PetrelProcessor.class);
    /**
     * How long Petrel keeps an async exchange open. Servlet async has its own timeout (Catalina's
     * {@code asyncTimeout}, enforced by {@link AsyncTimeouts}); this only bounds an exchange whose
     * application set none and never completes.
     */
    private static final Duration DETACH_CEILING = Duration.ofHours(24);

    private final PetrelProtocol protocol;
    private final ReentrantLock lock = new ReentrantLock();
    private final ExchangeInput input = new ExchangeInput();
    private final ExchangeOutput output;
    private dev.petrel.server.Request exchangeRequest;
    private dev.petrel.server.Response exchangeResponse;
    private Detached detached;
    private boolean earlyHintsSent;
    private UpgradeToken upgradeToken; // the application upgraded the connection (HttpServletRequest.upgrade)
    private Sendfile sendfile; // the file Catalina left to send, at commit
    private boolean closeAfter;
    private boolean over;
    /** Which exchange this processor serves; an event scheduled for an earlier one is dropped. */
    private volatile long generation;

    PetrelProcessor(PetrelProtocol protocol, Adapter adapter) {
        super(adapter);
        this.protocol = protocol;
        this.output = new ExchangeOutput(response);
        request.setInputBuffer(input);
        response.setOutputBuffer(output);
    }

    /**
     * Runs one exchange on Petrel's handler thread: Catalina's service, then, when the
     * application went async, the exchange detached for the thread that completes it.
     *
     * @return whether the exchange is over when this returns (false: it went async)
     * @throws AbandonedResponseException when Catalina abandoned the response: Petrel cuts the connection
     */
    boolean serve(dev.petrel.server.Request req, dev.petrel.server.Response res) throws IOException {
        begin(req, res);
        lock.lock();
        try {
            SocketState state = process(null, SocketEvent.OPEN_READ);
            if (state == SocketState.LONG) {
                detached = res.detach(DETACH_CEILING);
                protocol.asyncTimeouts().add(this);
                return false;
            }
            if (end()) throw new AbandonedResponseException();
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void begin(dev.petrel.server.Request req, dev.petrel.server.Response res) {
        generation++;
        exchangeRequest = req;
        exchangeResponse = res;
        detached = null;
        earlyHintsSent = false;
        upgradeToken = null;
        sendfile = null;
        closeAfter = false;
        over = false;
        input.begin(req.hasBody() ? req.body() : null);
        output.begin(res.body());
        request.setStartTimeNanos(System.nanoTime());
        request.method().setString(req.method());
        // bytes, undecoded: CoyoteAdapter decodes and normalizes them (a String would pass as decoded)
        byte[] uri = req.rawPath().getBytes(StandardCharsets.ISO_8859_1);
        request.requestURI().setBytes(uri, 0, uri.length);
        String query = req.query();
        if (query != null) {
            byte[] q = query.getBytes(StandardCharsets.ISO_8859_1);
            request.queryString().setBytes(q, 0, q.length);
        }
        request.protocol().setString(req.version().toString());
        MimeHeaders headers = request.getMimeHeaders();
        HeaderFields fields = req.headers();
        for (int i = 0; i < fields.size(); i++) {
            headers.addValue(protocol.headerName(fields.name(i))).setString(fields.value(i));
        }
        if (req.contentLength() >= 0) request.setContentLength(req.contentLength());
        request.scheme().setString(req.scheme());
        serverNameAndPort(req.host(), req.scheme(), req.localAddress());
        addresses(req.remoteAddress(), req.localAddress());
        TlsDetails tls = req.tls();
        setSslSupport(tls == null ? null : new TlsDetailsSupport(tls));
        for (Map.Entry<String, String> attribute : req.attributes().entrySet()) {
            request.setAttribute(attribute.getKey(), attribute.getValue());
        }
    }

    private void serverNameAndPort(String host, String scheme, InetSocketAddress local) {
        if (host == null || host.isEmpty()) {
            request.serverName().setString(local.getHostString());
            request.setServerPort(local.getPort());
            return;
        }
        // Petrel checked the Host already; only split it: "name", "name:port", "[v6]:port"
        int colon = host.lastIndexOf(':');
        if (colon > host.lastIndexOf(']')) {
            request.serverName().setString(host.substring(0, colon));
            request.setServerPort(Integer.parseInt(host, colon + 1, host.length(), 10));
        } else {
            request.serverName().setString(host);
            request.setServerPort("https".equals(scheme) ? 443 : 80);
        }
    }

    /** Addresses set up front: Petrel has them at hand, so no action needs to fetch them. */
    private void addresses(InetSocketAddress remote, InetSocketAddress local) {
        String remoteAddr = literal(remote);
        request.remoteAddr().setString(remoteAddr);
        request.peerAddr().setString(remoteAddr);
        request.remoteHost().setString(remoteAddr); // no lookups, as Tomcat's enableLookups="false"
        request.setRemotePort(remote.getPort());
        request.localAddr().setString(literal(local));
        request.localName().setString(local.getHostString());
        request.setLocalPort(local.getPort());
    }

    /** The IP literal, or over AJP, where the front end names its side, the name it gave. */
    static String literal(InetSocketAddress address) {
        return address.getAddress() != null ? address.getAddress().getHostAddress() : address.getHostString();
    }

    /** What Catalina counts of this processor's requests, and the one it serves now. */
    org.apache.coyote.RequestInfo requestInfo() {
        return request.getRequestProcessor();
    }

    @Override
    protected boolean getPopulateRequestAttributesFromSocket() {
        return false; // all set in begin()
    }

    @Override
    public SocketState service(SocketWrapperBase<?> socket) throws IOException {
        RequestInfo info = request.getRequestProcessor();
        info.setStage(org.apache.coyote.Constants.STAGE_SERVICE);
        try {
            getAdapter().service(request, response);
        } catch (InterruptedIOException e) {
            setErrorState(ErrorState.CLOSE_CONNECTION_NOW, e);
        } catch (Throwable t) {
            ExceptionUtils.handleThrowable(t);
            LOG.error("Error processing request " + request.requestURI(), t);
            response.setStatus(500);
            setErrorState(ErrorState.CLOSE_NOW, t);
        }
        info.setStage(org.apache.coyote.Constants.STAGE_ENDED);
        if (!getErrorState().isError() && isAsync()) return SocketState.LONG;
        action(ActionCode.CLOSE, null);
        request.updateCounters();
        return SocketState.CLOSED;
    }

    @Override
    protected SocketState dispatchEndRequest() {
        return SocketState.CLOSED; // Petrel reuses the connection; the exchange is over
    }

    /**
     * Coyote's events for this exchange (async complete, dispatch, timeout, error, data for a
     * non-blocking reader) run here, on the protocol's executor when asked to dispatch.
     */
    @Override
    protected void processSocketEvent(SocketEvent event, boolean dispatch) {
        long exchange = generation;
        if (dispatch) protocol.executor().execute(() -> resume(event, exchange, null));
        else resume(event, exchange, null);
    }

    @Override
    protected void execute(Runnable runnable) {
        protocol.executor().execute(runnable);
    }

    /**
     * Runs an event of exchange number {@code exchange}, unless that exchange is over: then the
     * request and response serve another, and the event is dropped.
     *
     * @param failure the read failure behind an {@link SocketEvent#ERROR}, or {@code null}
     */
    private void resume(SocketEvent event, long exchange, IOException failure) {
        lock.lock();
        try {
            if (exchange != generation || over || detached == null) return; // late: that exchange is over
            if (failure != null) request.setAttribute(RequestDispatcher.ERROR_EXCEPTION, failure);
            if (event == SocketEvent.ERROR && request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) == null) {
                // AbstractProcessor asks a socket for the error; there is none, so name it here
                request.setAttribute(RequestDispatcher.ERROR_EXCEPTION, new IOException("error on the exchange"));
            }
            SocketState state = process(null, event);
            if (state != SocketState.LONG) {
                protocol.asyncTimeouts().remove(this);
                end();
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("Async processing failed", e);
            setErrorState(ErrorState.CLOSE_NOW, e);
            protocol.asyncTimeouts().remove(this);
            end();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The exchange is over: Petrel finishes it (or cuts it after an error) and this is reused.
     *
     * @return whether the connection must be cut (Coyote's error state allows no more I/O)
     */
    private boolean end() {
        if (over) return false;
        over = true;
        Detached d = detached;
        // A non-blocking reader's wait still reading the body (an async timeout came first) does not
        // fail the response: Petrel finishes it, then ends the connection rather than draining or
        // reusing it under that read (BodySource.readElsewhere).
        boolean cut = !getErrorState().isIoAllowed();
        recycleExchange();
        if (d != null) {
            if (cut) d.fail(new IOException("the application abandoned the response"));
            else d.complete();
        }
        protocol.release(this);
        return cut;
    }

    private void recycleExchange() {
        getAdapter().checkRecycled(request, response);
        request.recycle();
        response.recycle();
        super.recycle();
        exchangeRequest = null;
        exchangeResponse = null;
    }

    @Override
    public void recycle() {
        // Recycled in end(), once per exchange; Coyote's own calls find nothing left to do.
    }

    /**
     * The application upgraded the connection ({@code HttpServletRequest.upgrade}, which Jakarta
     * WebSocket's {@code @ServerEndpoint}s use too): the {@code 101} then switches it to the
     * upgrade handler (see {@link #switchProtocols}). Only an HTTP/1.1 request can, as on Tomcat's
     * own connectors: AJP has no upgrade, HTTP/2 forbids it.
     */
    @Override
    protected void doHttpUpgrade(UpgradeToken upgradeToken) {
        if (!protocol.carriesUpgrade()) super.doHttpUpgrade(upgradeToken); // throws, as Tomcat's AJP processor
        if (!"HTTP/1.1".equals(exchangeRequest.version().toString())) {
            throw new UnsupportedOperationException("HTTP upgrade needs an HTTP/1.1 connection; this request came over "
                    + exchangeRequest.version());
        }
        this.upgradeToken = upgradeToken;
    }

    @Override
    public UpgradeToken getUpgradeToken() {
        return upgradeToken;
    }

    /**
     * Sends the {@code 101} with the headers the application set ({@code Upgrade},
     * {@code Connection}, the handshake's) and has Petrel hand the connection, once this exchange is
     * over, to an {@link UpgradedConnection} serving the upgrade handler. Nothing more of this
     * response is written.
     */
    private void switchProtocols(dev.petrel.server.Response res) throws IOException {
        if (!(res instanceof ExchangeResponse exchange)) {
            throw new IOException("this exchange cannot switch protocols: its response is a " + res.getClass().getName());
        }
        copyHeaders(response.getMimeHeaders(), res);
        UpgradeToken token = upgradeToken;
        exchange.switchProtocols(endpoint -> new UpgradedConnection(endpoint, token, protocol.unboundEndpoint(),
                protocol.executor()));
        output.swallow();
    }

    @Override
    protected void prepareResponse() throws IOException {
        response.setCommitted(true);
        dev.petrel.server.Response res = exchangeResponse;
        if (upgradeToken != null && response.getStatus() == 101) {
            switchProtocols(res);
            return;
        }
        if (earlyHintsSent) res.reset(); // the hints' headers are in the final set again below
        int status = response.getStatus();
        res.status(status);
        if (!(status < 200 || status == 204 || status == 205 || status == 304)) {
            String contentType = response.getContentType();
            if (contentType != null) res.header("Content-Type", contentType);
            String contentLanguage = response.getContentLanguage();
            if (contentLanguage != null) res.header("Content-Language", contentLanguage);
            long contentLength = response.getContentLengthLong();
            if (contentLength >= 0) res.contentLength(contentLength);
        }
        copyHeaders(response.getMimeHeaders(), res);
        if (closeAfter) res.header("Connection", "close");
        sendfile = Sendfile.requested(request);
        if (response.getTrailerFields() != null && !isTrailerFieldsSupported()) {
            LOG.debug("Trailer fields dropped: the response cannot carry them");
        }
    }

    private static void copyHeaders(MimeHeaders headers, dev.petrel.server.Response res) {
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.getName(i).toString();
            // framing is Petrel's: Content-Length came through contentLength(), chunking is its choice
            if ("Transfer-Encoding".equalsIgnoreCase(name) || "Content-Length".equalsIgnoreCase(name)) continue;
            String value = headers.getValue(i).toString();
            if (value != null) res.addHeader(name, value);
        }
    }

    @Override
    protected void finishResponse() throws IOException {
        if (response.getTrailerFields() != null) {
            Map<String, String> trailers = response.getTrailerFields().get();
            if (trailers != null) trailers.forEach(exchangeResponse::trailer);
        }
        Sendfile file = sendfile;
        sendfile = null; // Coyote may finish a response twice: the file goes once
        if (file != null) file.sendTo(exchangeResponse); // the whole body: the application wrote none
        else output.end();
    }

    /** Petrel sends {@code 100 Continue} itself when the body is first read (Tomcat's "onRead" timing). */
    @Override
    protected void ack(ContinueResponseTiming continueResponseTiming) {}

    @Override
    protected void earlyHints() throws IOException {
        if (response.isCommitted()) return;
        copyHeaders(response.getMimeHeaders(), exchangeResponse);
        exchangeResponse.sendInterim(103);
        earlyHintsSent = true;
    }

    @Override
    protected void flush() throws IOException {
        output.flush();
    }

    @Override
    protected int available(boolean doRead) {
        return input.available();
    }

    @Override
    protected void setRequestBody(ByteChunk body) {
        input.replay(body);
    }

    @Override
    protected void setSwallowResponse() {
        output.swallow();
    }

    /** The body will not be read: the connection closes after the response instead of draining it. */
    @Override
    protected void disableSwallowRequest() {
        closeAfter = true;
    }

    @Override
    protected boolean isRequestBodyFullyRead() {
        return input.ended();
    }

    /**
     * A non-blocking reader waits for data on the executor: a blocking read, then the event. Only
     * the event counts as a busy thread: waiting for the client is what Tomcat's poller does idle.
     */
    @Override
    protected void registerReadInterest() {
        long exchange = generation;
        ConnectorThreadPool threads = protocol.threadPool();
        protocol.uncountedExecutor().execute(() -> {
            try {
                input.awaitData();
                threads.counted(() -> resume(SocketEvent.OPEN_READ, exchange, null)).run();
            } catch (IOException e) {
                threads.counted(() -> resume(SocketEvent.ERROR, exchange, e)).run();
            }
        });
    }

    @Override
    protected boolean isReadyForWrite() {
        return true; // writes block until the client takes them
    }

    @Override
    protected boolean flushBufferedWrite() {
        return false; // nothing is left buffered by a write
    }

    @Override
    protected boolean isTrailerFieldsReady() {
        if (!input.ended()) return false;
        HeaderFields trailers = exchangeRequest.trailers();
        MimeHeaders into = request.getMimeTrailerFields();
        if (into.size() == 0) {
            for (int i = 0; i < trailers.size(); i++) into.addValue(trailers.name(i)).setString(trailers.value(i));
        }
        return true;
    }

    @Override
    protected boolean isTrailerFieldsSupported() {
        // AJP has no trailers; HTTP/1.1 carries them in the chunked encoding, chosen at commit; HTTP/2 always
        String version = exchangeRequest.version().toString();
        return protocol.carriesTrailers() && !response.isCommitted()
                && (version.equals("HTTP/1.1") || version.equals("HTTP/2.0"));
    }

    @Override
    protected String getProtocolRequestId() {
        return null;
    }

    @Override
    protected jakarta.servlet.ServletConnection getServletConnection() {
        InetSocketAddress remote = exchangeRequest.remoteAddress();
        return new ServletConnectionImpl(literal(remote) + ":" + remote.getPort(),
                exchangeRequest.version().toString(), "", "https".equals(exchangeRequest.scheme()));
    }

    @Override
    protected Log getLog() {
        return LOG;
    }

    @Override
    public void pause() {
        // Petrel's server pauses; nothing per exchange
    }
}
