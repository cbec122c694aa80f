package com.example.web;

import java.util.Locale;
import org.json.JSONObject;
import org.springframework.context.MessageSource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class GreetingController {
    private final MessageSource messageSource;

    public GreetingController(MessageSource messageSource) {
        this.messageSource = messageSource;
    }

    @GetMapping("/hello")
    public String hello(String payload, Locale locale) {
        JSONObject json = new JSONObject(payload);
        String name = json.getString("name");
        return messageSource.getMessage("greeting.hello", new Object[] {name}, locale);
    }

    @GetMapping("/bye")
    public String bye(Locale locale) {
        return messageSource.getMessage("greeting.bye", null, "Goodbye", locale)
                + messageSource.getMessage("greeting.footer", null, "See you soon", locale);
    }

    public String unknown(Exception e) {
        return e.getMessage();
    }
}
