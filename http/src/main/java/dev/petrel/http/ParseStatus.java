package dev.petrel.http;

/**
 * The three outcomes of feeding bytes to a parser. Incomplete input is not an error: the caller
 * reads more and calls again with the bytes that follow.
 */
public enum ParseStatus {
    /** Every byte given was consumed and more are needed. */
    NEED_MORE,
    /** The element is complete; bytes after it are left in the buffer. */
    COMPLETE,
    /** The input is invalid; the parser's error says which status to answer with. */
    ERROR
}
