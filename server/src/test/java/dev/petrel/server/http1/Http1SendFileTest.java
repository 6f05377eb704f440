package dev.petrel.server.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.DateCache;
import dev.petrel.server.Handler;
import dev.petrel.server.TlsDetails;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.ScriptedEndpoint;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Response.sendFile} over HTTP/1.1: a body larger than the response buffer goes after the
 * head straight from the file when the endpoint can transfer files (the {@code nio} transport over
 * plain TCP), and is copied when it cannot (TLS, the blocking transports); a small one leaves with
 * the head in one write; {@code HEAD} gets the head alone. The bytes are the same every way.
 */
class Http1SendFileTest {
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("1994-11-06T08:49:37Z"));
    private static final int LARGE = 100_000; // above the 16 KiB response buffer

    @TempDir
    Path dir;
    Path file;
    byte[] content;

    @BeforeEach
    void writeFile() throws IOException {
        content = new byte[LARGE];
        new Random(18).nextBytes(content);
        file = Files.write(dir.resolve("data.bin"), content);
    }

    private Handler sending(long position, long count) {
        return (request, response) -> {
            try (FileChannel channel = FileChannel.open(file)) {
                response.contentType("application/octet-stream").sendFile(channel, position, count);
            }
        };
    }

    private static String request(String method) {
        return method + " /data.bin HTTP/1.1\r\nHost: x\r\n\r\n";
    }

    private static void serve(Endpoint endpoint, Handler handler) {
        new Http1Connection(endpoint, handler, ServerConfig.DEFAULT, new DateCache(CLOCK)).serve();
    }

    private static byte[] body(String output) {
        return output.substring(output.indexOf("\r\n\r\n") + 4).getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void aLargeBodyGoesFromTheFileAfterTheHeadWhereTheEndpointCan() {
        TransferringEndpoint endpoint = new TransferringEndpoint(request("GET"));
        serve(endpoint, sending(0, LARGE));
        assertThat(endpoint.transfers).containsExactly(new long[] {0, LARGE});
        String output = endpoint.scripted.output();
        assertThat(output).startsWith("HTTP/1.1 200 OK\r\n").contains("Content-Length: " + LARGE + "\r\n").doesNotContain("chunked");
        assertThat(body(output)).isEqualTo(content);
    }

    @Test
    void aRangeOfTheFileIsTransferredFromItsOffset() {
        TransferringEndpoint endpoint = new TransferringEndpoint(request("GET"));
        serve(endpoint, sending(1000, 50_000));
        assertThat(endpoint.transfers).containsExactly(new long[] {1000, 50_000});
        assertThat(body(endpoint.scripted.output())).isEqualTo(java.util.Arrays.copyOfRange(content, 1000, 51_000));
    }

    @Test
    void aSmallBodyLeavesWithTheHeadInOneWriteInstead() {
        TransferringEndpoint endpoint = new TransferringEndpoint(request("GET"));
        serve(endpoint, sending(0, 1000));
        assertThat(endpoint.transfers).isEmpty();
        assertThat(endpoint.writes).isEqualTo(1);
        assertThat(body(endpoint.scripted.output())).isEqualTo(java.util.Arrays.copyOf(content, 1000));
    }

    @Test
    void anEndpointThatCannotTransferGetsTheBytesCopied() {
        ScriptedEndpoint endpoint = new ScriptedEndpoint(request("GET"), 4096, ScriptedEndpoint.End.EOF);
        serve(endpoint, sending(0, LARGE));
        String output = endpoint.output();
        assertThat(output).contains("Content-Length: " + LARGE + "\r\n");
        assertThat(body(output)).isEqualTo(content);
    }

    @Test
    void headGetsTheLengthAndNoBody() {
        TransferringEndpoint endpoint = new TransferringEndpoint(request("HEAD"));
        serve(endpoint, sending(0, LARGE));
        assertThat(endpoint.transfers).isEmpty();
        String output = endpoint.scripted.output();
        assertThat(output).contains("Content-Length: " + LARGE + "\r\n").endsWith("\r\n\r\n");
    }

    @Test
    void aFileShorterThanTheCountCutsTheConnectionAfterTheHead() {
        ScriptedEndpoint endpoint = new ScriptedEndpoint(request("GET") + request("GET"), 4096, ScriptedEndpoint.End.EOF);
        serve(endpoint, sending(0, LARGE + 10));
        assertThat(endpoint.output()).startsWith("HTTP/1.1 200 OK\r\n").contains("Content-Length: " + (LARGE + 10));
        assertThat(endpoint.closed()).isTrue(); // the second request is never answered: the framing was broken
        assertThat(endpoint.output().split("HTTP/1.1 ", -1)).hasSize(2);
    }

    /** A scripted endpoint that can transfer files, as the nio transport's does: it records each transfer and writes its bytes. */
    private static final class TransferringEndpoint implements Endpoint {
        final ScriptedEndpoint scripted;
        final List<long[]> transfers = new ArrayList<>();
        int writes;

        TransferringEndpoint(String input) {
            this.scripted = new ScriptedEndpoint(input, 4096, ScriptedEndpoint.End.EOF);
        }

        @Override
        public boolean transferFile(FileChannel file, long position, long count) throws IOException {
            transfers.add(new long[] {position, count});
            ByteBuffer bytes = ByteBuffer.allocate((int) count);
            while (bytes.hasRemaining()) {
                if (file.read(bytes, position + bytes.position()) < 0) throw new IOException("short file");
            }
            scripted.write(bytes.array(), 0, (int) count);
            return true;
        }

        @Override
        public int read(ByteBuffer dst, int timeoutMillis) throws IOException {
            return scripted.read(dst, timeoutMillis);
        }

        @Override
        public void write(byte[] src, int off, int len) {
            writes++;
            scripted.write(src, off, len);
        }

        @Override
        public void shutdownOutput() {
            scripted.shutdownOutput();
        }

        @Override
        public void close() {
            scripted.close();
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return scripted.remoteAddress();
        }

        @Override
        public InetSocketAddress localAddress() {
            return scripted.localAddress();
        }

        @Override
        public TlsDetails tls() {
            return null;
        }
    }
}
