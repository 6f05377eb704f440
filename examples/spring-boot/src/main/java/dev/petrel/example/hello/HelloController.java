package dev.petrel.example.hello;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The answers the seed measured: {@code GET /} is {@code HelloWorld}; and the JSON a REST client gets. */
@RestController
public class HelloController {
    /** The JSON body of {@code GET /json}. */
    public record Greeting(String message, boolean secure) {}

    @GetMapping("/")
    public String hello() {
        return "HelloWorld";
    }

    @GetMapping("/json")
    public Greeting json(HttpServletRequest request) {
        return new Greeting("HelloWorld", request.isSecure());
    }
}
