package dev.petrel.springboot;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Seed 003's application: HelloWorld at {@code /}, a JSON endpoint, a slow one for graceful shutdown,
 * and two that show how Catalina decoded a path and parsed a form.
 */
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

    /** The last character of the path as Catalina decoded it, in hex: shows which URI encoding it used. */
    @GetMapping("/decoded/**")
    String decoded(jakarta.servlet.http.HttpServletRequest request) {
        String path = request.getServletPath();
        return Integer.toHexString(path.charAt(path.length() - 1));
    }

    /** The form parameter {@code p} as Catalina parsed it, or "none". */
    @org.springframework.web.bind.annotation.PostMapping("/form")
    String form(jakarta.servlet.http.HttpServletRequest request) {
        String p = request.getParameter("p");
        return p == null ? "none" : "length " + p.length();
    }

    @GetMapping("/slow")
    String slow() throws InterruptedException {
        Thread.sleep(1500);
        return "finished";
    }
}
