package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Handler;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code nio} loops run on virtual threads when the server's handler may block, so that the
 * requests they hand over share their carriers; a server whose handler never blocks keeps platform
 * loops. A non-blocking route runs inline on its loop, so it answers with the loop's thread kind.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EventLoopThreadsTest {
    private static final Handler LOOP_KIND = Handler.nonBlocking((request, response) -> response.send(kind()));

    private static String kind() {
        Thread current = Thread.currentThread();
        return (current.isVirtual() ? "virtual " : "platform ") + current.getName();
    }

    private static String answer(Server server) throws Exception {
        try (RawClient client = RawClient.connect(server)) {
            client.send(Requests.get("/inline"));
            return new String(client.read().body(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void aHandlerThatMayBlockGetsVirtualLoops() throws Exception {
        Router router = Router.builder()
                .get("/inline", LOOP_KIND)
                .get("/blocking", (request, response) -> response.send(kind()))
                .build();
        try (Server server = TestServers.builder(Transport.NIO, TestServers.config().build(), router).start()) {
            assertThat(answer(server)).startsWith("virtual petrel-nio-loop-");
        }
    }

    @Test
    void aHandlerThatNeverBlocksKeepsPlatformLoops() throws Exception {
        Router router = Router.builder().get("/inline", LOOP_KIND).build();
        try (Server server = TestServers.builder(Transport.NIO, TestServers.config().build(), Handler.nonBlocking(router)).start()) {
            assertThat(answer(server)).startsWith("platform petrel-nio-loop-");
        }
    }
}
