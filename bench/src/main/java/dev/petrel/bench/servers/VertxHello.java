package dev.petrel.bench.servers;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;

/** Vert.x with one HttpServer on the default event loops. The bodies are Buffers made once. */
public final class VertxHello {
    private VertxHello() {}

    public static void main(String[] args) throws Exception {
        int port = Hello.port(args, "VertxHello PORT");
        Hello.quietLogging();
        Buffer page = Buffer.buffer(Hello.page());
        Buffer hello = Buffer.buffer(Hello.HELLO);

        Vertx vertx = Vertx.vertx();
        vertx.createHttpServer()
                .requestHandler(request -> {
                    boolean isPage = Hello.PAGE_PATH.equals(request.path());
                    request.response()
                            .putHeader("Content-Type", isPage ? Hello.HTML_TYPE : Hello.TEXT_TYPE)
                            .end(isPage ? page : hello);
                })
                .listen(port, Hello.HOST)
                .toCompletionStage().toCompletableFuture().get();
        Hello.runUntilTerminated("vertx", port);
    }
}
