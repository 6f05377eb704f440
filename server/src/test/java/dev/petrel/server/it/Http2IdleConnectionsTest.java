package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.petrel.server.Server;
import dev.petrel.server.config.Http2Config;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An idle HTTP/2 connection on the {@code nio} transport holds no thread: once its reader has
 * answered every stream and taken in everything that arrived, the event loop watches the socket
 * instead, and serves the connection again on a worker when frames come. On {@code virtual}, a
 * thread per connection by design, each idle connection keeps its reader parked in a read: the
 * same probe counts them there, which shows it sees virtual threads at all.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2IdleConnectionsTest {
    private static final int CONNECTIONS = 20;
    private static final String READER_FRAME = "dev.petrel.server.http2.Http2Connection.readFrames";

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"NIO", "NIO_TLS", "VIRTUAL"})
    void idleConnectionsHoldAThreadOnlyOnAThreadPerConnectionTransport(Transport kind) throws Exception {
        TestServers.skipUnlessTls(kind.tls());
        try (Server server = TestServers.builder(kind, TestServers.config().build(), TestApp.handler())
                .http2(Http2Config.ENABLED.withClearText(true)).start()) {
            List<H2Client> clients = new ArrayList<>();
            try {
                for (int i = 0; i < CONNECTIONS; i++) {
                    H2Client client = connect(server, kind);
                    clients.add(client);
                    assertThat(client.get(1, "/").text()).isEqualTo("HelloWorld");
                }
                int expected = kind.kind() == Transport.VIRTUAL.kind() ? CONNECTIONS : 0;
                TestServers.awaitCondition(expected + " threads reading idle HTTP/2 connections", Duration.ofSeconds(5),
                        () -> readerThreads() == expected);

                // a connection handed back to the loop is served again when frames come, on each connection
                for (int i = 0; i < CONNECTIONS; i++) assertThat(clients.get(i).get(3, "/").text()).isEqualTo("HelloWorld");
                TestServers.awaitLiveConnections(server, CONNECTIONS);
            } finally {
                for (H2Client client : clients) client.close();
            }
        }
    }

    private static H2Client connect(Server server, Transport kind) throws IOException {
        return kind.tls() ? H2Client.connectTls(server.httpsAddress().getPort(), TestCertificate.get().clientContext())
                : H2Client.connect(server.address().getPort());
    }

    /** The threads of this JVM, virtual ones included, with an HTTP/2 reader on their stack now. */
    private static int readerThreads() {
        try {
            Path dump = Files.createTempDirectory("petrel-threads").resolve("threads.txt");
            try {
                ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                        .dumpThreads(dump.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN);
                // one block per thread, blank lines between
                return (int) Arrays.stream(Files.readString(dump).split("\\R\\R"))
                        .filter(thread -> thread.contains(READER_FRAME))
                        .count();
            } finally {
                Files.deleteIfExists(dump);
                Files.deleteIfExists(dump.getParent());
            }
        } catch (IOException e) {
            throw new AssertionError("thread dump failed", e);
        }
    }
}
