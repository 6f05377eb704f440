package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.HttpLimits;
import dev.petrel.server.Server;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * With the default limits, the parts of a chunked body that carry no data are bounded too: a
 * 1 MiB chunk extension gets 400 once the chunk-size line passes {@link HttpLimits#maxChunkLineLength()}
 * (1 KiB), and 1 MiB of trailers 431 once they pass {@link HttpLimits#maxHeaderSectionSize()}
 * (16 KiB), never a 200; the server reads no further than the limit and the lingering close.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OversizedFramingTest {
    private static final int MIB = 1024 * 1024;
    private static final String CHUNKED = "POST /echo HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n";

    @TransportTest
    void aOneMebibyteChunkExtensionGets400(Transport kind) throws Exception {
        assertThat(HttpLimits.DEFAULT.maxChunkLineLength()).isEqualTo(1024);
        String body = "5;ext=" + "e".repeat(MIB) + "\r\nhello\r\n0\r\n\r\n";
        assertRefused(kind, CHUNKED + body, 400, "Bad Request: Chunk size line too long\n");
    }

    @TransportTest
    void aOneMebibyteTrailerSectionGets431(Transport kind) throws Exception {
        assertThat(HttpLimits.DEFAULT.maxHeaderSectionSize()).isEqualTo(16 * 1024);
        StringBuilder trailers = new StringBuilder();
        while (trailers.length() < MIB) trailers.append("X-T: ").append("t".repeat(1000)).append("\r\n");
        assertRefused(kind, CHUNKED + "5\r\nhello\r\n0\r\n" + trailers + "\r\n", 431, null);
    }

    private static void assertRefused(Transport kind, String request, int status, String text) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            // the server stops reading at the limit: send from another thread, which fails when it closes
            Thread sender = Thread.ofVirtual().start(() -> {
                try {
                    client.send(request);
                } catch (IOException e) {
                    // the server closed after its answer, before taking everything: expected
                }
            });
            RawResponse response = client.read();
            assertThat(response.status()).isEqualTo(status);
            assertThat(response.headers("Connection")).containsExactly("close");
            if (text != null) assertThat(response.text()).isEqualTo(text);
            sender.join(TimeUnit.SECONDS.toMillis(10));
        }
    }
}
