package dev.petrel.example.hello;

import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.handler.annotation.SendTo;
import org.springframework.stereotype.Controller;

/** STOMP's side of the greeting: a name sent to {@code /app/greet} is answered on {@code /topic/greetings}. */
@Controller
public class GreetingMessages {
    @MessageMapping("/greet")
    @SendTo("/topic/greetings")
    public String greet(String name) {
        return "Hello, " + name + "!";
    }
}
