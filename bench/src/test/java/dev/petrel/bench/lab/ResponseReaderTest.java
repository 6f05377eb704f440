package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where a response ends, found in bytes fed in pieces: every response is fed split at every point,
 * and one byte at a time, and must be complete exactly when its last byte is in.
 */
class ResponseReaderTest {
    /** Tomcat's answer to GET / as the lab captured it: an empty reason phrase after the code. */
    private static final String TOMCAT = "HTTP/1.1 200 \r\nContent-Type: text/plain;charset=UTF-8\r\n"
            + "Content-Length: 10\r\nDate: Sun, 22 Nov 2026 12:01:06 GMT\r\n\r\nHelloWorld";
    /** The C baseline's answer, with the reason phrase. */
    private static final String BASELINE = "HTTP/1.1 200 OK\r\nContent-Type: text/plain;charset=UTF-8\r\n"
            + "Content-Length: 10\r\nDate: Sun, 22 Nov 2026 12:00:00 GMT\r\n\r\nHelloWorld";
    private static final String CHUNKED = "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
            + "5;ext=1\r\nHello\r\nA\r\nWorld12345\r\n0\r\nTrailer: yes\r\n\r\n";

    private static ByteBuffer bytes(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** The ways to cut {@code text} into pieces: in two at every point, and byte by byte. */
    private static List<List<String>> splits(String text) {
        List<List<String>> all = new ArrayList<>();
        for (int i = 0; i <= text.length(); i++) all.add(List.of(text.substring(0, i), text.substring(i)));
        all.add(text.chars().mapToObj(c -> String.valueOf((char) c)).toList());
        return all;
    }

    /** Feeds {@code response} in every split; complete exactly once its last byte is in, with {@code status}. */
    private static void assertCompleteInAllSplits(String response, int status) {
        for (List<String> pieces : splits(response)) {
            ResponseReader reader = new ResponseReader();
            int fed = 0;
            for (int i = 0; i < pieces.size(); i++) {
                ByteBuffer piece = bytes(pieces.get(i));
                boolean done = reader.feed(piece);
                fed += pieces.get(i).length();
                assertThat(done).as("complete after piece %d of %s", i, pieces).isEqualTo(fed == response.length());
                assertThat(piece.hasRemaining()).as("bytes left in piece %d of %s", i, pieces).isFalse();
            }
            assertThat(reader.status()).isEqualTo(status);
        }
    }

    @Test
    void findsTheEndOfContentLengthBodiesInEverySplit() {
        assertCompleteInAllSplits(TOMCAT, 200);
        assertCompleteInAllSplits(BASELINE, 200);
    }

    @Test
    void findsTheEndOfAChunkedBodyAndItsTrailersInEverySplit() {
        assertCompleteInAllSplits(CHUNKED, 200);
    }

    @Test
    void findsTheEndOfBodilessResponsesInEverySplit() {
        assertCompleteInAllSplits("HTTP/1.1 204 No Content\r\nContent-Length: 99\r\n\r\n", 204);
        assertCompleteInAllSplits("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", 404);
    }

    @Test
    void stopsAtTheEndOfTheResponseAndLeavesWhatFollows() {
        ByteBuffer in = bytes(BASELINE + "HTTP/1.1 200 OK\r\n");
        ResponseReader reader = new ResponseReader();

        assertThat(reader.feed(in)).isTrue();
        assertThat(in.remaining()).isEqualTo("HTTP/1.1 200 OK\r\n".length());
    }

    @Test
    void readsTheNextResponseOnTheSameConnectionAfterReset() {
        ResponseReader reader = new ResponseReader();
        assertThat(reader.feed(bytes(BASELINE))).isTrue();

        reader.reset();
        assertThat(reader.complete()).isFalse();
        assertThat(reader.status()).isEqualTo(-1);
        assertThat(reader.feed(bytes("HTTP/1.1 503 Busy\r\nContent-Length: 4\r\n\r\nbu"))).isFalse();
        assertThat(reader.feed(bytes("sy"))).isTrue();
        assertThat(reader.status()).isEqualTo(503);
    }

    @Test
    void aBodyWithoutLengthEndsWithTheConnection() {
        ResponseReader reader = new ResponseReader();

        assertThat(reader.feed(bytes("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nHelloWorld"))).isFalse();
        assertThat(reader.endOfStream()).isTrue();
        assertThat(reader.status()).isEqualTo(200);
    }

    @Test
    void theEndOfTheStreamInsideAHeadOrALengthIsNoResponse() {
        ResponseReader head = new ResponseReader();
        head.feed(bytes("HTTP/1.1 200 OK\r\nContent-Len"));
        ResponseReader body = new ResponseReader();
        body.feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nHello"));

        assertThat(head.endOfStream()).isFalse();
        assertThat(body.endOfStream()).isFalse();
    }

    @Test
    void refusesWhatIsNotAResponseItCanFrame() {
        assertThatThrownBy(() -> new ResponseReader().feed(bytes("GET / HTTP/1.1\r\n")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("status line");
        assertThatThrownBy(() -> new ResponseReader().feed(bytes("HTTP/1.1 2x0 OK\r\n")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("status line");
        assertThatThrownBy(() -> new ResponseReader().feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Content-Length");
        assertThatThrownBy(() -> new ResponseReader().feed(bytes(
                "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two different");
        assertThatThrownBy(() -> new ResponseReader().feed(bytes(
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chunk size");
        assertThatThrownBy(() -> new ResponseReader().feed(bytes(
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("longer than its size");
    }

    @Test
    void boundsLinesAndFields() {
        String longLine = "HTTP/1.1 200 OK\r\nX: " + "a".repeat(ResponseReader.MAX_LINE) + "\r\n";
        assertThatThrownBy(() -> new ResponseReader().feed(bytes(longLine)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("longer than");
        String manyFields = "HTTP/1.1 200 OK\r\n" + "X: y\r\n".repeat(ResponseReader.MAX_FIELDS + 1);
        assertThatThrownBy(() -> new ResponseReader().feed(bytes(manyFields)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fields");
    }

    @Test
    void saysWhenTheResponseAsksToCloseTheConnection() {
        ResponseReader reader = new ResponseReader();
        assertThat(reader.feed(bytes(TOMCAT))).isTrue();
        assertThat(reader.closes()).isFalse();

        // httpd's last response on a keep-alive connection (MaxKeepAliveRequests)
        reader.reset();
        assertThat(reader.feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\nConnection: close\r\n\r\nHelloWorld")))
                .isTrue();
        assertThat(reader.closes()).isTrue();

        reader.reset();
        assertThat(reader.closes()).isFalse();
        assertThat(reader.feed(bytes("HTTP/1.1 204 \r\nconnection: Upgrade, CLOSE\r\n\r\n"))).isTrue();
        assertThat(reader.closes()).isTrue();

        reader.reset();
        assertThat(reader.feed(bytes("HTTP/1.1 204 \r\nConnection: keep-alive\r\n\r\n"))).isTrue();
        assertThat(reader.closes()).isFalse();
    }
}
