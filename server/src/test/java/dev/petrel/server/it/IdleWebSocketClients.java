package dev.petrel.server.it;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Many WebSocket clients that open their sessions and then say nothing, run as a process of its
 * own by {@link WebSocketHardeningTest}: each connection is a file descriptor on both ends, and
 * in one process 10,000 sessions would need 20,000 of them. Arguments: the port, how many
 * sessions. Prints {@code opened N} once all are open; then, for each {@code echo} line on its
 * input, has every session echo one message and prints {@code echoed N}; any other line, or the
 * end of its input, closes them all. Prints {@code failed: why} and exits 1 on any failure.
 */
final class IdleWebSocketClients {
    private static final int THREADS = 4;

    private IdleWebSocketClients() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int count = Integer.parseInt(args[1]);
        List<Socket> sessions = Collections.synchronizedList(new ArrayList<>(count));
        try {
            inParallel(count, i -> sessions.add(open(port)));
            System.out.println("opened " + sessions.size());
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String command; "echo".equals(command = commands.readLine()); ) {
                AtomicInteger echoed = new AtomicInteger();
                inParallel(count, i -> {
                    echo(sessions.get(i), "session " + i);
                    echoed.incrementAndGet();
                });
                System.out.println("echoed " + echoed.get());
            }
        } catch (Exception e) {
            System.out.println("failed: " + e);
            System.exit(1);
        } finally {
            for (Socket socket : sessions) socket.close();
        }
    }

    private interface Step {
        void run(int i) throws IOException;
    }

    /** Runs {@code step} for 0 to count - 1 on a few threads, each its share in order; the first failure ends all. */
    private static void inParallel(int count, Step step) throws Exception {
        List<Thread> threads = new ArrayList<>();
        List<Exception> failures = Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < THREADS; t++) {
            int first = t;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int i = first; i < count && failures.isEmpty(); i += THREADS) step.run(i);
                } catch (IOException | RuntimeException e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread thread : threads) thread.join();
        if (!failures.isEmpty()) throw failures.get(0);
    }

    private static Socket open(int port) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            socket.setSoTimeout(10_000);
            socket.setTcpNoDelay(true);
            socket.getOutputStream().write(ClientFrames.handshake("").getBytes(StandardCharsets.ISO_8859_1));
            String head = readHead(socket.getInputStream());
            if (!head.startsWith("HTTP/1.1 101 ")) throw new IOException("not switched: " + head);
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** The answer's head: the server sends it in one piece and nothing after it until asked. */
    private static String readHead(InputStream in) throws IOException {
        byte[] buffer = new byte[1024];
        int length = 0;
        while (length < 4 || !new String(buffer, length - 4, 4, StandardCharsets.ISO_8859_1).equals("\r\n\r\n")) {
            int n = in.read(buffer, length, buffer.length - length);
            if (n < 0) throw new IOException("the connection ended in the handshake's answer");
            length += n;
            if (length == buffer.length) throw new IOException("a head over 1 KiB");
        }
        return new String(buffer, 0, length, StandardCharsets.ISO_8859_1);
    }

    private static void echo(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(ClientFrames.text(text));
        ClientFrames.ServerFrame frame = ClientFrames.read(new DataInputStream(socket.getInputStream()));
        if (!frame.text().equals(text)) throw new IOException("echoed " + frame.text() + " for " + text);
    }
}
