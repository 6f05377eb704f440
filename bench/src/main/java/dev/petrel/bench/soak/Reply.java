package dev.petrel.bench.soak;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

/**
 * What came back on a fault's connection, read until EOF, a byte count or a deadline: its first
 * line (an HTTP status line, when it is one), how many bytes, and how the reading ended.
 *
 * @param start the first bytes that came, up to 256
 * @param bytes how many bytes came
 * @param ending why the reading stopped
 * @param error the exception that stopped it, for {@link Ending#ERROR}
 * @param millis how long the reading took
 */
record Reply(byte[] start, long bytes, Ending ending, String error, long millis) {
    /** Why the reading stopped. */
    enum Ending {
        /** The server closed its side. */
        EOF,
        /** The server reset the connection. */
        RESET,
        /** The deadline passed with the connection still open. */
        TIMEOUT,
        /** As many bytes as asked for came. */
        LIMIT,
        /** Another error, TLS most likely. */
        ERROR
    }

    private static final int FIRST_BYTES = 256;

    /**
     * Reads from {@code connection} until EOF, {@code maxBytes} or {@code limitMillis}.
     * Never throws for what the server does: an error ends the reading and is kept.
     */
    static Reply read(Connection connection, long limitMillis, long maxBytes) {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(limitMillis);
        byte[] first = new byte[FIRST_BYTES];
        byte[] buffer = new byte[16 * 1024];
        long bytes = 0;
        Ending ending;
        String error = null;
        try {
            InputStream in = connection.in();
            while (true) {
                if (bytes >= maxBytes) {
                    ending = Ending.LIMIT;
                    break;
                }
                long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (remaining <= 0) {
                    ending = Ending.TIMEOUT;
                    break;
                }
                // one timeout for the time left rather than short slices: a timed-out TLS read is best not repeated
                connection.readTimeout((int) remaining);
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, maxBytes - bytes));
                if (n < 0) {
                    ending = Ending.EOF;
                    break;
                }
                if (bytes < FIRST_BYTES) System.arraycopy(buffer, 0, first, (int) bytes, (int) Math.min(n, FIRST_BYTES - bytes));
                bytes += n;
            }
        } catch (SocketTimeoutException e) {
            ending = Ending.TIMEOUT;
        } catch (SocketException e) {
            boolean reset = e.getMessage() != null && e.getMessage().contains("reset");
            ending = reset ? Ending.RESET : Ending.ERROR;
            error = reset ? null : describe(e);
        } catch (IOException e) {
            ending = Ending.ERROR;
            error = describe(e);
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        return new Reply(Arrays.copyOf(first, (int) Math.min(bytes, FIRST_BYTES)), bytes, ending, error, millis);
    }

    /** {@code SSLException: message}: an exception as a detail shows it. */
    static String describe(Exception e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    /** The status line, a hex glimpse of bytes that are not HTTP, or empty when nothing came. */
    String firstLine() {
        if (start.length == 0) return "";
        String text = new String(start, StandardCharsets.ISO_8859_1);
        if (text.startsWith("HTTP/")) {
            int end = text.indexOf('\r');
            return end < 0 ? text : text.substring(0, end);
        }
        return "bytes " + HexFormat.ofDelimiter(" ").formatHex(start, 0, Math.min(start.length, 8));
    }

    /** The status code of an HTTP answer, or -1. */
    int status() {
        String firstLine = firstLine();
        if (!firstLine.startsWith("HTTP/") || firstLine.length() < 12) return -1;
        try {
            return Integer.parseInt(firstLine.substring(9, 12));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** E.g. {@code "HTTP/1.1 400 Bad Request", 120 bytes, then EOF after 3 ms}. */
    @Override
    public String toString() {
        return (bytes == 0 ? "nothing" : "\"" + firstLine() + "\", " + bytes + " bytes") + how();
    }

    /** How the reading ended, e.g. {@code , then EOF after 3 ms}. */
    String how() {
        return switch (ending) {
            case EOF -> ", then EOF after " + millis + " ms";
            case RESET -> ", then a reset after " + millis + " ms";
            case TIMEOUT -> ", connection still open after " + millis + " ms";
            case LIMIT -> " in " + millis + " ms";
            case ERROR -> ", then " + error + " after " + millis + " ms";
        };
    }
}
