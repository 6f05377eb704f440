package dev.petrel.bench.floor;

import java.io.IOException;

/**
 * A floor server: one thread, one event loop, the fixed {@link FloorResponse} for every request head.
 * Bound (on 127.0.0.1) when constructed; {@link #run()} loops on the calling thread until {@link #close()}.
 */
interface FloorServer extends AutoCloseable {
    /** The only address a floor binds. */
    String HOST = "127.0.0.1";
    /** Bytes of input a connection buffers, as dummy.c's IN_CAP: a longer head closes the connection. */
    int IN_CAP = 8192;
    /** Responses answered per write, as dummy.c's MAX_QUEUE. */
    int MAX_QUEUE = 16;
    /** The listen backlog: SOMAXCONN of the glibc headers dummy.c is built with (the kernel caps it). */
    int BACKLOG = 4096;

    /** The port it listens on (the one asked for, or the one the kernel chose for 0). */
    int port();

    /** Runs the event loop on this thread until {@link #close()}; then closes every socket. */
    void run() throws IOException;

    /** Makes {@link #run()} return soon; callable from any thread. */
    @Override
    void close();

    /** What a floor's main does: {@code PORT} from the arguments, bind, say so on stderr, run. */
    static void main(String name, String[] args, Factory factory) throws IOException {
        int port = -1;
        if (args.length == 1) {
            try {
                port = Integer.parseInt(args[0]);
            } catch (NumberFormatException e) {
                port = -1;
            }
        }
        if (port < 1 || port > 65535) {
            System.err.println("usage: " + name + " PORT   (listens on " + HOST + ":PORT until stopped)");
            System.exit(2);
        }
        FloorServer server;
        try {
            server = factory.bind(port);
        } catch (IOException e) {
            System.err.println(name + ": cannot listen on " + HOST + ":" + port + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        System.err.println(name + " listening on http://" + HOST + ":" + server.port() + "/");
        server.run();
    }

    /** Binds a floor server to a port. */
    @FunctionalInterface
    interface Factory {
        FloorServer bind(int port) throws IOException;
    }
}
