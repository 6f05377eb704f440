package dev.petrel.springboot;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Seed 003's application: HelloWorld at {@code /}, a JSON endpoint, and a slow one for graceful shutdown. */
@SpringBootApplication
@RestController
public class HelloApplication {
    record Greeting(String message, boolean secure) {}

    @GetMapping("/")
    String hello() {
        return "HelloWorld";
    }

    @GetMapping("/json")
    Greeting json(jakarta.servlet.http.HttpServletRequest request) {
        return new Greeting("HelloWorld", request.isSecure());
    }

    @GetMapping("/who")
    String who(jakarta.servlet.http.HttpServletRequest request) {
        java.security.cert.X509Certificate[] chain =
                (java.security.cert.X509Certificate[]) request.getAttribute("jakarta.servlet.request.X509Certificate");
        return chain == null ? "anonymous" : chain[0].getSubjectX500Principal().getName();
    }

    @GetMapping("/slow")
    String slow() throws InterruptedException {
        Thread.sleep(1500);
        return "finished";
    }
}
