package dev.petrel.example.hello;

import java.time.LocalDate;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** A server-rendered page: {@code GET /greeting?name=...} through the Thymeleaf template {@code greeting.html}. */
@Controller
public class GreetingPage {
    @GetMapping("/greeting")
    public String greeting(@RequestParam(name = "name", defaultValue = "World") String name, Model model) {
        model.addAttribute("name", name);
        model.addAttribute("today", LocalDate.now());
        return "greeting";
    }
}
