package dev.petrel.server.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;

/** The server name read from a JDK client's real ClientHello, whole, split at every byte, and re-framed. */
class ClientHelloServerNameTest {

    private static byte[] helloFrom(String serverName) throws Exception {
        SSLEngine client = MemoryHandshake.client(serverName);
        ByteBuffer out = ByteBuffer.allocate(client.getSession().getPacketBufferSize());
        client.wrap(ByteBuffer.allocate(0), out);
        return Arrays.copyOf(out.array(), out.position());
    }

    @Test
    void readsTheNameNormalizedWithoutConsumingAnything() throws Exception {
        ByteBuffer in = ByteBuffer.wrap(helloFrom("A.Test"));

        assertThat(ClientHelloServerName.peek(in)).isEqualTo(new ClientHelloServerName.Peek(true, "a.test"));
        assertThat(in.position()).isZero();
    }

    @Test
    void needsMoreAtEverySplitThenReadsTheName() throws Exception {
        byte[] hello = helloFrom("b.test");
        for (int split = 0; split < hello.length; split++) {
            assertThat(ClientHelloServerName.peek(ByteBuffer.wrap(hello, 0, split))).as("first %d bytes", split)
                    .isEqualTo(ClientHelloServerName.Peek.NEEDS_MORE);
        }
        assertThat(ClientHelloServerName.peek(ByteBuffer.wrap(hello)).serverName()).isEqualTo("b.test");
    }

    @Test
    void putsTogetherAHelloSplitOverTwoRecords() throws Exception {
        byte[] hello = helloFrom("split.test");
        byte[] message = Arrays.copyOfRange(hello, 5, hello.length);
        int first = 40; // inside the random: the extensions are all in the second record
        ByteBuffer twoRecords = ByteBuffer.allocate(message.length + 10);
        twoRecords.put(new byte[] {22, 3, 1, 0, (byte) first}).put(message, 0, first);
        int rest = message.length - first;
        twoRecords.put(new byte[] {22, 3, 1, (byte) (rest >> 8), (byte) rest}).put(message, first, rest).flip();

        assertThat(ClientHelloServerName.peek(twoRecords.slice(0, 5 + first + 5 + 10))).isEqualTo(ClientHelloServerName.Peek.NEEDS_MORE);
        assertThat(ClientHelloServerName.peek(twoRecords).serverName()).isEqualTo("split.test");
    }

    @Test
    void aHelloWithoutTheExtensionNamesNothing() throws Exception {
        assertThat(ClientHelloServerName.peek(ByteBuffer.wrap(helloFrom(null)))).isEqualTo(ClientHelloServerName.Peek.NO_NAME);
    }

    @Test
    void whatIsNotAHelloNamesNothingAndLeavesTheRefusalToTheEngine() {
        assertThat(ClientHelloServerName.peek(ByteBuffer.wrap("GET / HTTP/1.1\r\n".getBytes())))
                .isEqualTo(ClientHelloServerName.Peek.NO_NAME);
        // a handshake record whose ClientHello claims more extension bytes than it has
        byte[] truncated = {22, 3, 1, 0, 6, 1, 0, 0, 2, 3, 3};
        assertThat(ClientHelloServerName.peek(ByteBuffer.wrap(truncated))).isEqualTo(ClientHelloServerName.Peek.NO_NAME);
    }
}
