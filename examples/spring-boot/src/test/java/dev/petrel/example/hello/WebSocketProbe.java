package dev.petrel.example.hello;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.springframework.messaging.converter.StringMessageConverter;
import org.springframework.messaging.simp.stomp.StompCommand;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.handler.TextWebSocketHandler;
import org.springframework.web.socket.messaging.WebSocketStompClient;

/**
 * A client of the application's two WebSocket endpoints, as a Spring application would be one:
 * {@link WebSocketStompClient} and {@link StandardWebSocketClient} over the Jakarta WebSocket
 * client that Tomcat brings. Every wait is bounded; a missing answer fails naming any error the
 * client saw.
 */
final class WebSocketProbe {
    private static final long WAIT_SECONDS = 10;

    private WebSocketProbe() {}

    /**
     * Connects to the STOMP endpoint at {@code url} ({@code ws://.../stomp}), subscribes to
     * {@code /topic/greetings}, sends {@code name} to {@code /app/greet} and returns the greeting
     * that arrives on the topic.
     */
    static String greetOverStomp(String url, String name) throws Exception {
        WebSocketStompClient client = new WebSocketStompClient(new StandardWebSocketClient());
        client.setMessageConverter(new StringMessageConverter()); // names and greetings are text/plain
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        StompSession session = client.connectAsync(url, new StompSessionHandlerAdapter() {
            @Override
            public void handleException(StompSession s, StompCommand command, StompHeaders headers, byte[] payload,
                    Throwable exception) {
                errors.add(exception);
            }

            @Override
            public void handleTransportError(StompSession s, Throwable exception) {
                errors.add(exception);
            }
        }).get(WAIT_SECONDS, TimeUnit.SECONDS);
        try {
            BlockingQueue<String> greetings = new LinkedBlockingQueue<>();
            session.subscribe("/topic/greetings", new StompFrameHandler() {
                @Override
                public Type getPayloadType(StompHeaders headers) {
                    return String.class;
                }

                @Override
                public void handleFrame(StompHeaders headers, Object payload) {
                    greetings.add((String) payload);
                }
            });
            session.send("/app/greet", name);
            return awaitOrFail(greetings, "a greeting on /topic/greetings from " + url, errors);
        } finally {
            session.disconnect();
        }
    }

    /** Opens a WebSocket to the echo endpoint at {@code url}, sends each text in turn and returns the replies. */
    static List<String> echo(String url, String... texts) throws Exception {
        BlockingQueue<String> replies = new LinkedBlockingQueue<>();
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        WebSocketSession session = new StandardWebSocketClient().execute(new TextWebSocketHandler() {
            @Override
            protected void handleTextMessage(WebSocketSession s, TextMessage message) {
                replies.add(message.getPayload());
            }

            @Override
            public void handleTransportError(WebSocketSession s, Throwable exception) {
                errors.add(exception);
            }
        }, url).get(WAIT_SECONDS, TimeUnit.SECONDS);
        try {
            List<String> echoed = new ArrayList<>();
            for (String text : texts) {
                session.sendMessage(new TextMessage(text));
                echoed.add(awaitOrFail(replies, "the echo of a " + text.length() + "-character message from " + url, errors));
            }
            return echoed;
        } finally {
            session.close(CloseStatus.NORMAL);
        }
    }

    private static String awaitOrFail(BlockingQueue<String> queue, String what, List<Throwable> errors)
            throws InterruptedException {
        String value = queue.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        if (value == null) {
            AssertionError failure = new AssertionError("no " + what + " within " + WAIT_SECONDS + " s");
            errors.forEach(failure::addSuppressed);
            throw failure;
        }
        return value;
    }
}
