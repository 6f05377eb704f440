package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.HttpLimits;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.Server;
import dev.petrel.server.demo.DemoSite;
import dev.petrel.server.tls.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The issue's repro with a real client: curl uploads more than {@code --max-body-size} to the
 * demo site's {@code /echo} (try-with-resources over the body and the response) without
 * declaring its length, and must report an error, never a complete 200; over HTTP/1.1 (chunked)
 * and over HTTP/2 (h2c on a plain port, h2 over TLS), on every transport. With the length
 * declared the upload is refused up front with 413, over HTTP/2 as over HTTP/1.1.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CurlFailedUploadTest {
    private static final int LIMIT = 1 << 20;

    @TempDir
    static Path dir;
    private static Path upload;

    @BeforeAll
    static void upload() throws Exception {
        upload = Files.write(dir.resolve("big.bin"), new byte[2 * LIMIT]);
    }

    private static Server start(Transport kind) throws Exception {
        var config = TestServers.config().limits(HttpLimits.DEFAULT.withMaxBodySize(LIMIT)).build();
        return TestServers.builder(kind, config, DemoSite.handler(DemoSite.bundledRoot(), InstantSource.system()))
                .http2(Http2Config.ENABLED.withClearText(true)).start();
    }

    /** curl's exit status and {@code %{http_code} %{size_download}}, uploading with {@code options}. */
    private static Tools.Result curl(Server server, Transport kind, boolean http2, String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "30", "-o", "/dev/null",
                "-w", "%{http_code} %{size_download}", "--data-binary", "@" + upload));
        if (kind.tls()) {
            Path trusted = dir.resolve("localhost.crt");
            if (!Files.exists(trusted)) Files.writeString(trusted, TestCertificate.get().certificatePem());
            command.addAll(List.of("--cacert", trusted.toString(), http2 ? "--http2" : "--http1.1"));
        } else if (http2) {
            command.add("--http2-prior-knowledge");
        }
        command.addAll(List.of(options));
        command.add(kind.tls() ? "https://localhost:" + server.httpsAddress().getPort() + "/echo"
                : "http://127.0.0.1:" + server.address().getPort() + "/echo");
        return Tools.runAllowingFailure(dir, command, "");
    }

    @TransportTest
    void curlReportsAnErrorForAnUploadPastTheLimitWhoseEchoHadBegun(Transport kind) throws Exception {
        TestServers.skipUnlessTls(kind.tls());
        try (Server server = start(kind)) {
            for (boolean http2 : new boolean[] {false, true}) {
                Tools.Result chunked = curl(server, kind, http2, "-H", "Transfer-Encoding: chunked");
                assertThat(chunked.exitCode()).as((http2 ? "HTTP/2" : "HTTP/1.1") + ": curl must report an error, not a whole"
                        + " response (%s)", chunked.output()).isNotZero();
                assertThat(chunked.output()).as("what curl saw").doesNotStartWith("200 " + 2 * LIMIT);

            }
            Tools.Result declared = curl(server, kind, false);
            assertThat(declared.exitCode()).as(declared.output()).isZero();
            assertThat(declared.output()).as("HTTP/1.1: a declared length past the limit").startsWith("413 ");
        }
    }

    /**
     * Over HTTP/2 a declared length past the limit is refused before the handler runs, as over
     * HTTP/1.1. (Told by a raw client: curl 7.88 sometimes reports a stream error for a complete
     * early response followed by {@code RST_STREAM(NO_ERROR)} while it still uploads, which RFC
     * 9113 section 8.1 says a client must accept; curl/curl#22984 is that bug.)
     */
    @TransportTest
    void http2RefusesADeclaredLengthPastTheLimitWith413(Transport kind) throws Exception {
        TestServers.skipUnlessTls(kind.tls());
        try (Server server = start(kind);
             H2Client client = kind.tls() ? H2Client.connectTls(server.httpsAddress().getPort(), TestCertificate.get().clientContext())
                     : H2Client.connect(server.address().getPort())) {
            client.headers(1, false, H2Client.requestWithScheme(kind.tls() ? "https" : "http", "POST", "/echo",
                    "content-length", Integer.toString(2 * LIMIT)));
            H2Client.Response response = client.response(1);
            assertThat(response.status()).isEqualTo(413);
            assertThat(response.text()).startsWith("Content Too Large");
        }
    }
}
