package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.Filter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Tomcat's sendfile through the connector: the DefaultServlet serving a 5 MiB file, whole and by
 * ranges, checked by SHA-256. A filter tells whether the servlet took the sendfile path: it then
 * names the file in {@code org.apache.tomcat.sendfile.filename} and writes no body, leaving the
 * response uncommitted, so the filter can still add a header; had the connector not sent the file,
 * the body would be missing. On {@code nio} over plain HTTP the servlet takes that path; with
 * {@code useSendfile="false"} or on {@code blocking}, where the bytes would pass through the heap,
 * it writes the body itself.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SendfileConnectorTest {
    private static final int SIZE = 5 << 20;
    private static final byte[] FILE = new byte[SIZE];
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    static {
        new Random(41).nextBytes(FILE);
    }

    /** After the servlet: says whether it left the file for the connector to send. */
    private static final Filter SENDFILE_WITNESS = (req, res, chain) -> {
        chain.doFilter(req, res);
        if (req.getAttribute("org.apache.tomcat.sendfile.filename") != null) {
            ((jakarta.servlet.http.HttpServletResponse) res).setHeader("X-Sendfile", "used");
        }
    };

    private static EmbeddedTomcat start(String transport, String useSendfile) throws IOException {
        Connector connector = new Connector(new PetrelHttp11Protocol());
        connector.setProperty("transport", transport);
        if (useSendfile != null) connector.setProperty("useSendfile", useSendfile);
        EmbeddedTomcat tomcat = EmbeddedTomcat.create(connector).filter("/*", SENDFILE_WITNESS);
        Files.write(tomcat.docBase().resolve("big.bin"), FILE);
        return tomcat.start();
    }

    private static HttpResponse<byte[]> get(EmbeddedTomcat tomcat, String range) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + tomcat.port() + "/big.bin"));
        if (range != null) request.header("Range", range);
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    @ParameterizedTest(name = "{0} useSendfile={1}: sendfile {2}")
    @CsvSource({"nio,, true", "nio,true, true", "nio,false, false", "blocking,, false", "virtual,, false"})
    void theFileArrivesWholeAndByRangeSentByTheConnectorOnlyWhereItSkipsTheHeap(String transport, String useSendfile,
                                                                                boolean sentByConnector) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport, useSendfile)) {
            for (int round = 0; round < 2; round++) { // the second on a kept-alive connection
                HttpResponse<byte[]> whole = get(tomcat, null);
                assertThat(whole.statusCode()).isEqualTo(200);
                assertThat(whole.headers().firstValueAsLong("Content-Length")).hasValue(SIZE);
                assertThat(sha256(whole.body())).isEqualTo(sha256(FILE));
                assertThat(whole.headers().firstValue("X-Sendfile").isPresent()).isEqualTo(sentByConnector);
            }

            HttpResponse<byte[]> middle = get(tomcat, "bytes=1000-3999999");
            assertThat(middle.statusCode()).isEqualTo(206);
            assertThat(middle.headers().firstValue("Content-Range")).hasValue("bytes 1000-3999999/" + SIZE);
            assertThat(sha256(middle.body())).isEqualTo(sha256(Arrays.copyOfRange(FILE, 1000, 4_000_000)));
            assertThat(middle.headers().firstValue("X-Sendfile").isPresent()).isEqualTo(sentByConnector);

            HttpResponse<byte[]> tail = get(tomcat, "bytes=-1048576");
            assertThat(tail.statusCode()).isEqualTo(206);
            assertThat(sha256(tail.body())).isEqualTo(sha256(Arrays.copyOfRange(FILE, SIZE - (1 << 20), SIZE)));
            assertThat(tail.headers().firstValue("X-Sendfile").isPresent()).isEqualTo(sentByConnector);
        }
    }

    @Test
    void supportedOnlyOnPlainHttpOverNio() {
        PetrelHttp11Protocol http = new PetrelHttp11Protocol();
        assertThat(http.isSendfileSupported()).as("nio, plain HTTP, useSendfile by default").isTrue();
        http.setSSLEnabled(true);
        assertThat(http.isSendfileSupported()).as("TLS: the bytes are encrypted on the heap").isFalse();

        PetrelAjpProtocol ajp = new PetrelAjpProtocol();
        assertThat(ajp.isSendfileSupported()).as("AJP: the bytes are copied into packets").isFalse();
    }
}
