package dev.petrel.example.hello;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Seed 003's Spring Boot HelloWorld. Run as an executable jar, its embedded Tomcat serves on
 * Petrel's connector because {@code petrel-spring-boot} is on the class path; deployed as a war,
 * on whichever connector the container's {@code server.xml} names.
 */
@SpringBootApplication
public class HelloApplication {
    /** {@code java -jar target/hello.jar [--server.port=8080] [--petrel.transport=nio]}. */
    public static void main(String[] args) {
        SpringApplication.run(HelloApplication.class, args);
    }
}
