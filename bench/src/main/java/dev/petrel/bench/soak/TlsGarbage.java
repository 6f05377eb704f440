package dev.petrel.bench.soak;

import java.io.IOException;
import java.net.Socket;
import java.util.random.RandomGenerator;

/**
 * {@link FaultKind#TLS_GARBAGE}: bytes that are no TLS, sent to a TLS port in place of a
 * ClientHello: random bytes, or random bytes behind a handshake record header ({@code 16 03 01}
 * and their length), which gets past a first glance at the record and fails in the handshake
 * parser instead. Then whatever comes back is read until EOF or 3 s.
 *
 * @param garbage the bytes sent
 * @param recordHeader whether they begin with a handshake record header
 */
record TlsGarbage(byte[] garbage, boolean recordHeader) implements Fault {
    private static final int ANSWER_LIMIT_MILLIS = 3_000;

    /** {@code size} random bytes from {@code random}, behind a record header when {@code recordHeader}. */
    static TlsGarbage draw(RandomGenerator random, int size, boolean recordHeader) {
        byte[] garbage = new byte[size];
        random.nextBytes(garbage);
        if (recordHeader) {
            int length = size - 5;
            garbage[0] = 0x16; // handshake
            garbage[1] = 0x03;
            garbage[2] = 0x01; // TLS 1.0 on the record, as ClientHellos have it
            garbage[3] = (byte) (length >> 8);
            garbage[4] = (byte) length;
        }
        return new TlsGarbage(garbage, recordHeader);
    }

    @Override
    public void run(Listener target, FaultSockets sockets, Transcript transcript) throws IOException {
        try (Socket socket = sockets.tcp(target.port(), ANSWER_LIMIT_MILLIS)) {
            Connection connection = new Connection(socket, socket);
            connection.send(garbage);
            transcript.note(garbage.length + " random bytes" + (recordHeader ? " behind a handshake record header" : ""));
            Reply reply = Reply.read(connection, ANSWER_LIMIT_MILLIS, 64 * 1024);
            transcript.note("answer: " + TlsRecords.describe(reply.start()) + (reply.bytes() > 0 ? " (" + reply.bytes() + " bytes)" : "")
                    + reply.how());
        }
    }
}
