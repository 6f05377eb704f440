package dev.petrel.server.http2;

/**
 * The streams the server reset most recently on one connection. Frames the client sent on them
 * before it saw the reset are to be ignored (RFC 9113 section 5.1), not answered with another
 * reset: answering them would let a client that uploads to a handler that answers early look like
 * one provoking resets. A ring of the last {@link #SIZE} ids: enough for what can be in flight.
 */
final class RecentlyReset {
    private static final int SIZE = 256;

    private final int[] ids = new int[SIZE];
    private int next;

    synchronized void add(int streamId) {
        ids[next] = streamId;
        next = (next + 1) % SIZE;
    }

    synchronized boolean contains(int streamId) {
        for (int id : ids) {
            if (id == streamId) return true;
        }
        return false;
    }
}
