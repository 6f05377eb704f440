package dev.petrel.bench.soak;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.random.RandomGenerator;

/**
 * {@link FaultKind#WEBSOCKET_VANISH}: WebSocket clients of {@code /ws/echo} that vanish without a
 * close frame. Each upgrades (checking the 101 and its {@code Sec-WebSocket-Accept}), sends one
 * masked text frame, reads the echo or not, and is then reset, at once or after some silence (the
 * server's session then sits idle before the reset ends it). A virtual thread per client, all at
 * once; the fault ends when every one has.
 *
 * @param clients what each client does
 */
record WebSocketVanish(List<Client> clients) implements Fault {
    private static final String PATH = "/ws/echo";
    private static final int READ_TIMEOUT_MILLIS = 3_000;
    private static final int MAX_HEAD_BYTES = 8 * 1024;
    /** CR LF CR LF, as the last four bytes read. */
    private static final int END_OF_HEAD = 0x0D0A0D0A;

    /**
     * One client's part.
     *
     * @param key the 16 bytes of its {@code Sec-WebSocket-Key}
     * @param mask its frame's masking key
     * @param readsEcho whether it reads the echo before vanishing
     * @param silenceMillis how long it stays open and silent before the reset; 0 for none
     */
    record Client(byte[] key, byte[] mask, boolean readsEcho, int silenceMillis) {}

    /** {@code count} clients, their keys and choices drawn from {@code random}: silent ones for 1 to 3 s. */
    static WebSocketVanish draw(RandomGenerator random, int count) {
        List<Client> clients = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] key = new byte[16];
            byte[] mask = new byte[4];
            random.nextBytes(key);
            random.nextBytes(mask);
            boolean readsEcho = random.nextBoolean();
            int silence = random.nextBoolean() ? random.nextInt(1_000, 3_001) : 0;
            clients.add(new Client(key, mask, readsEcho, silence));
        }
        return new WebSocketVanish(List.copyOf(clients));
    }

    @Override
    public void run(Listener target, FaultSockets sockets, Transcript transcript) throws InterruptedException {
        Outcomes outcomes = new Outcomes();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < clients.size(); i++) {
                int index = i;
                threads.execute(() -> outcomes.add(vanish(target, sockets, index)));
            }
        } // waits for every client to vanish: none outlives the fault
        transcript.note(clients.size() + " WebSockets on " + PATH + ", each reset without a close frame: " + outcomes);
    }

    /** Client {@code index}'s upgrade, frame and vanishing; says how it went. */
    private String vanish(Listener target, FaultSockets sockets, int index) {
        Client client = clients.get(index);
        Connection connection;
        try {
            connection = sockets.http1(target, READ_TIMEOUT_MILLIS);
        } catch (IOException e) {
            return "not connected (" + Reply.describe(e) + ")";
        }
        try (connection) {
            String key = WebSocketFrames.key(client.key());
            connection.send("GET " + PATH + " HTTP/1.1\r\n" + RequestHeads.host(target) + "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n\r\n");
            String head = head(connection.in());
            String statusLine = head.lines().findFirst().orElse("");
            if (!statusLine.startsWith("HTTP/1.1 101")) return "refused (\"" + statusLine + "\")";
            if (!head.contains(WebSocketFrames.accept(key))) return "upgraded with a wrong Sec-WebSocket-Accept";
            String text = "vanishing client " + index;
            connection.send(WebSocketFrames.maskedText(text, client.mask()));
            StringBuilder outcome = new StringBuilder("upgraded, sent a frame");
            if (client.readsEcho()) outcome.append(echo(connection.in(), text));
            if (client.silenceMillis() > 0) {
                Thread.sleep(client.silenceMillis());
                outcome.append(", silent 1-3 s");
            }
            connection.reset();
            return outcome.append(", reset").toString();
        } catch (InterruptedException e) {
            return "stopped (the fault was cut)";
        } catch (IOException e) {
            return "ended by the server (" + Reply.describe(e) + ")";
        }
    }

    /** The answer's head, up to its empty line, or what came before EOF. */
    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        // byte by byte: what follows the head is the server's first frame, not to be taken here
        int lastFour = 0;
        for (int b; head.size() < MAX_HEAD_BYTES && (b = in.read()) >= 0; ) {
            head.write(b);
            lastFour = lastFour << 8 | b;
            if (lastFour == END_OF_HEAD) break;
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    /** {@code ", echo read"}, or what came instead. */
    private static String echo(InputStream in, String text) throws IOException {
        byte[] expected = WebSocketFrames.serverText(text);
        try {
            byte[] got = in.readNBytes(expected.length);
            return Arrays.equals(got, expected) ? ", echo read" : ", a wrong echo";
        } catch (SocketTimeoutException e) {
            return ", no echo in " + READ_TIMEOUT_MILLIS + " ms";
        }
    }
}
