package dev.petrel.server.engine.exchange;

/**
 * A response as its protocol's {@link ExchangeStream} encodes it: what the handler set, checked by
 * the exchange. Valid for the exchange the stream is committing.
 */
public interface ResponseHead {
    /** The status code. */
    int status();

    /** Header fields the handler set, in order; never {@code Content-Length}, {@code Transfer-Encoding} or {@code Connection}. */
    int headerCount();

    /** The name of header {@code i}. */
    String headerName(int i);

    /** The value of header {@code i}. */
    String headerValue(int i);

    /** Whether the handler set a {@code Date} of its own, which then replaces the server's. */
    boolean hasDate();

    /** The body's length, declared or, for a complete commit, counted; -1 while unknown. */
    long contentLength();

    /** Whether a body may follow: not for a HEAD request, nor for 1xx, 204 and 304. */
    boolean sendsBody();

    /** Whether the handler asked to close the connection after this response ({@code Connection: close}). */
    boolean asksToClose();

    /** Trailer fields the handler added, in order. */
    int trailerCount();

    /** The name of trailer {@code i}. */
    String trailerName(int i);

    /** The value of trailer {@code i}. */
    String trailerValue(int i);
}
