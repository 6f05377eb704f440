package dev.petrel.server.demo;

import dev.petrel.server.WebSocket;
import dev.petrel.server.WebSocketHandler;
import dev.petrel.server.WebSocketMessage;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The demo's chat room ({@code /ws/chat}, the page {@code /chat.html}): every text message a
 * member sends goes to every member, the sender included. Messages are at most 4 KiB; binary ones
 * are not chat and are dropped.
 */
final class ChatRoom implements WebSocketHandler {
    private final Set<WebSocket> members = ConcurrentHashMap.newKeySet();

    @Override
    public void serve(WebSocket socket) throws IOException {
        members.add(socket);
        try {
            for (WebSocketMessage message; (message = socket.receive()) != null; ) {
                if (message instanceof WebSocketMessage.Text text) broadcast(text.text());
            }
        } finally {
            members.remove(socket);
        }
    }

    /** Sends to each member in turn; one that cannot take it any more is left to its own receive() to end. */
    private void broadcast(String text) {
        for (WebSocket member : members) {
            try {
                member.sendText(text);
            } catch (IOException e) {
                members.remove(member);
            }
        }
    }
}
