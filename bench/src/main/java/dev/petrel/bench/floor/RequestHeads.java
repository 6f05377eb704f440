package dev.petrel.bench.floor;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Finds complete request heads ({@code ...\r\n\r\n}) in a connection's input and reads the little the
 * floor needs of each, as {@code bench/baseline/dummy.c} does: HEAD or not, HTTP/1.0 or not, the
 * {@code close} and {@code keep-alive} tokens of Connection, and a Content-Length to skip.
 *
 * <p>It reads a {@link MemorySegment}, so the NIO floor (a direct buffer seen as a segment) and the FFM
 * floors (native memory) run the very same parsing code and differ only in their I/O. One instance per
 * event loop, reused for every head: nothing is allocated per request.
 */
final class RequestHeads {
    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;

    private long end;
    private boolean headOnly;
    private boolean http10;
    private boolean keepAlive;
    private long contentLength;

    /**
     * Reads the first complete head in {@code in[from, to)}.
     *
     * @return whether there was one; if so, the accessors describe it
     */
    boolean next(MemorySegment in, long from, long to) {
        long blank = indexOf(in, from, to, true);
        if (blank < 0) return false;
        long headEnd = blank + 2; // the last field line's CRLF included
        long lineEnd = indexOf(in, from, headEnd, false);
        headOnly = startsWith(in, from, lineEnd, "HEAD ");
        http10 = lineEnd - from >= 8 && startsWith(in, lineEnd - 8, lineEnd, "HTTP/1.0");
        boolean askClose = false;
        boolean askKeepAlive = false;
        contentLength = 0;
        for (long line = lineEnd + 2; line < headEnd; ) {
            long next = indexOf(in, line, headEnd, false);
            long value = valueOf(in, line, next, "connection");
            if (value >= 0) {
                askClose |= hasToken(in, value, next, "close");
                askKeepAlive |= hasToken(in, value, next, "keep-alive");
            } else if ((value = valueOf(in, line, next, "content-length")) >= 0) {
                long length = 0;
                for (long i = value; i < next; i++) {
                    byte b = in.get(BYTE, i);
                    if (b >= '0' && b <= '9') length = length * 10 + (b - '0');
                }
                contentLength = length;
            }
            line = next + 2;
        }
        keepAlive = !askClose && (!http10 || askKeepAlive);
        end = blank + 4;
        return true;
    }

    /** The offset just past the head's blank line. */
    long end() {
        return end;
    }

    /** Whether the method is HEAD: the response goes without its body. */
    boolean headOnly() {
        return headOnly;
    }

    /** Whether the request line ends in HTTP/1.0. */
    boolean http10() {
        return http10;
    }

    /** Whether the connection stays open after the response. */
    boolean keepAlive() {
        return keepAlive;
    }

    /** The Content-Length's digits as a number (0 without one): body bytes to drop. */
    long contentLength() {
        return contentLength;
    }

    /** The offset of the first CRLF (or CRLFCRLF) in {@code [from, to)}, or -1. */
    private static long indexOf(MemorySegment in, long from, long to, boolean blankLine) {
        long last = to - (blankLine ? 4 : 2);
        for (long i = from; i <= last; i++) {
            if (in.get(BYTE, i) == '\r' && in.get(BYTE, i + 1) == '\n'
                    && (!blankLine || (in.get(BYTE, i + 2) == '\r' && in.get(BYTE, i + 3) == '\n'))) {
                return i;
            }
        }
        return -1;
    }

    private static boolean startsWith(MemorySegment in, long from, long to, String prefix) {
        if (to - from < prefix.length()) return false;
        for (int i = 0; i < prefix.length(); i++) {
            if (in.get(BYTE, from + i) != prefix.charAt(i)) return false;
        }
        return true;
    }

    /** Where the value of field line {@code [line, end)} begins if its name is {@code name} (lower case), or -1. */
    private static long valueOf(MemorySegment in, long line, long end, String name) {
        int n = name.length();
        if (end - line <= n || in.get(BYTE, line + n) != ':' || !equalsIgnoreCase(in, line, name)) return -1;
        return line + n + 1;
    }

    /** Whether the comma-separated value {@code [from, to)} holds {@code token} (lower case), ignoring case. */
    private static boolean hasToken(MemorySegment in, long from, long to, String token) {
        long v = from;
        while (v < to) {
            while (v < to && isSeparator(in.get(BYTE, v))) v++;
            long start = v;
            while (v < to && in.get(BYTE, v) != ',') v++;
            long stop = v;
            while (stop > start && isBlank(in.get(BYTE, stop - 1))) stop--;
            if (stop - start == token.length() && equalsIgnoreCase(in, start, token)) return true;
        }
        return false;
    }

    private static boolean equalsIgnoreCase(MemorySegment in, long from, String lower) {
        for (int i = 0; i < lower.length(); i++) {
            int b = in.get(BYTE, from + i);
            if (b >= 'A' && b <= 'Z') b += 'a' - 'A';
            if (b != lower.charAt(i)) return false;
        }
        return true;
    }

    private static boolean isSeparator(byte b) {
        return b == ' ' || b == '\t' || b == ',';
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t';
    }
}
