package dev.petrel.server.engine;

import dev.petrel.server.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * What a handler sets on a response before it is committed (status, headers, declared length),
 * checked the same way whatever protocol carries it. Content-Length and Transfer-Encoding belong
 * to the engine: a handler's Content-Length is taken as the declared length, and it may not set
 * Transfer-Encoding. The protocol's response class adds how the head and body are written.
 *
 * <p>One rule ties the response to the request body: after the body failed (cut short, too slow,
 * malformed, too large) a response may not claim success, since it would rest on a body the
 * client never sent whole; {@link #checkRequestBody()} is asked before every commit.
 */
abstract class ResponseSettings implements Response {
    private final BodyFailure requestBody;
    final ResponseHeaders headers = new ResponseHeaders();
    int status;
    long declaredLength;
    /** Body bytes held, not yet sent. */
    int buffered;

    ResponseSettings(BodyFailure requestBody) {
        this.requestBody = requestBody;
    }

    /** Throws when the head has been committed and settings can no longer change. */
    abstract void checkOpen();

    /**
     * Just before the head is committed: throws when the request body failed and the status says
     * anything but an error. A handler that closes its output stream while a body read is failing
     * (try-with-resources), or catches the failure and answers anyway, meets this instead of
     * sending a success; the engine then answers with the body's own status. An error status of
     * the handler's own is let through.
     */
    final void checkRequestBody() throws IOException {
        Exception failure = requestBody.failure();
        if (failure != null && status < 400) {
            throw new IOException("the request body failed (" + failure.getMessage() + "); a " + status
                    + " response would claim success", failure);
        }
    }

    /** Back to the defaults, for the next exchange. */
    void resetSettings() {
        status = 200;
        declaredLength = -1;
        buffered = 0;
        headers.clear();
    }

    @Override
    public Response status(int status) {
        checkOpen();
        this.status = ResponseRules.checkStatus(status);
        return this;
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public Response header(String name, String value) {
        checkOpen();
        if (!isFraming(name, value)) headers.set(name, value);
        return this;
    }

    @Override
    public Response addHeader(String name, String value) {
        checkOpen();
        if (!isFraming(name, value)) headers.add(name, value);
        return this;
    }

    private boolean isFraming(String name, String value) {
        long length = ResponseRules.framingLength(name, value);
        if (length == -1) return false;
        contentLength(length);
        return true;
    }

    @Override
    public String header(String name) {
        if ("Content-Length".equalsIgnoreCase(name)) return declaredLength < 0 ? null : Long.toString(declaredLength);
        return headers.get(name);
    }

    @Override
    public Response contentLength(long length) {
        checkOpen();
        if (length < 0) throw new IllegalArgumentException("negative Content-Length");
        if (buffered > length) throw new IllegalStateException("more than " + length + " bytes already written");
        declaredLength = length;
        return this;
    }

    @Override
    public void send(String text) throws IOException {
        if (headers.get("Content-Type") == null) header("Content-Type", "text/plain;charset=UTF-8");
        send(text.getBytes(StandardCharsets.UTF_8));
    }
}
