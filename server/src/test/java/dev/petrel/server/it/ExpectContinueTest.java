package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** {@code Expect: 100-continue}: RFC 9110 section 10.1.1. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExpectContinueTest {
    private static final String HEAD = "POST %s HTTP/1.1\r\nHost: test\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n";

    @TransportTest
    void continueIsSentWhenTheHandlerReadsTheBody(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse interim = client.send(HEAD.formatted("/echo")).read();
            assertThat(interim.statusLine()).isEqualTo("HTTP/1.1 100 Continue");
            assertThat(interim.headers()).isEmpty();

            RawResponse response = client.send("hello").read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("hello");
            assertThat(response.header("Connection")).isNull();

            assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
        }
    }

    @TransportTest
    void noContinueAndCloseWhenTheHandlerAnswersWithoutReading(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(HEAD.formatted("/ignore")).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("ignored");
            // the body may or may not follow now: the connection cannot be reused safely
            assertThat(response.headers("Connection")).containsExactly("close");
            client.assertClosedByServer();
        }
    }

    @TransportTest
    void expectationIsIgnoredFromHttp10Clients(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(
                    "POST /echo HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello").read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("hello");
        }
    }

    @TransportTest
    void unknownExpectationIs417(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(
                    "POST /echo HTTP/1.1\r\nHost: test\r\nExpect: 200-ok\r\nContent-Length: 5\r\n\r\nhello").read();
            assertThat(response.status()).isEqualTo(417);
            assertThat(response.saysClose()).isTrue();
            client.assertClosedByServer();
        }
    }
}
