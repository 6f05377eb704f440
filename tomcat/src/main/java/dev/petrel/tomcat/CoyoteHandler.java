package dev.petrel.tomcat;

import dev.petrel.server.Handler;
import dev.petrel.server.Request;
import dev.petrel.server.Response;

/** Petrel's handler for a Tomcat connector: every exchange goes to Catalina through a processor. */
final class CoyoteHandler implements Handler {
    private final PetrelProtocol protocol;

    CoyoteHandler(PetrelProtocol protocol) {
        this.protocol = protocol;
    }

    @Override
    public void handle(Request request, Response response) throws Exception {
        if (protocol.paused()) {
            response.status(503).header("Connection", "close").send("The connector is paused.\n");
            return;
        }
        // counted for the ThreadPool bean: this thread is busy in Catalina until serve returns
        ConnectorThreadPool threads = protocol.threadPool();
        threads.handlerBegan();
        try {
            protocol.processor().serve(request, response);
        } finally {
            threads.handlerEnded();
        }
    }
}
