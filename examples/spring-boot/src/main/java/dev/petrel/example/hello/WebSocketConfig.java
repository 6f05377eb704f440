package dev.petrel.example.hello;

import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.EnableWebSocketMessageBroker;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;

/**
 * The application's two WebSocket endpoints, upgraded by whichever connector serves it (Petrel's
 * or Tomcat's, embedded or in a standalone Tomcat):
 * <ul>
 *   <li>{@code /stomp}: STOMP with Spring's in-memory broker. A client subscribes to
 *       {@code /topic/greetings} and sends a name to {@code /app/greet}; {@link GreetingMessages}
 *       answers on the topic.</li>
 *   <li>{@code /ws/echo}: a plain WebSocket, {@link EchoHandler} sends each text message back.</li>
 * </ul>
 */
@Configuration
@EnableWebSocket
@EnableWebSocketMessageBroker
public class WebSocketConfig implements WebSocketConfigurer, WebSocketMessageBrokerConfigurer {
    @Override
    public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
        registry.addHandler(new EchoHandler(), "/ws/echo");
    }

    @Override
    public void registerStompEndpoints(StompEndpointRegistry registry) {
        registry.addEndpoint("/stomp");
        // A client's frames are handled in the order it sent them, so a SUBSCRIBE is in place
        // before the SEND that follows it (Spring otherwise hands them to its pool in parallel).
        registry.setPreserveReceiveOrder(true);
    }

    @Override
    public void configureMessageBroker(MessageBrokerRegistry registry) {
        registry.enableSimpleBroker("/topic");
        registry.setApplicationDestinationPrefixes("/app");
    }
}
