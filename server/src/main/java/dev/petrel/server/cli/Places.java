package dev.petrel.server.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Where each option in effect was given: on the command line, in the {@code --config} file or in
 * the environment. A message about an option begins with the option as the user wrote it
 * ({@code --port}, {@code --config petrel.properties: key 'port'}, {@code environment variable
 * PETREL_PORT}), so that a value from a file is found in the file.
 */
final class Places {
    private final Map<String, List<Given>> byName = new LinkedHashMap<>();

    /** The places of {@code given}, the values in effect once the sources are merged. */
    Places(List<Given> given) {
        for (Given value : given) {
            byName.computeIfAbsent(value.option().name(), name -> new ArrayList<>()).add(value);
        }
        byName.replaceAll((name, values) -> List.copyOf(values));
    }

    /** Whether {@code name} (without the dashes) was given anywhere. */
    boolean given(String name) {
        return byName.containsKey(name);
    }

    /** Whether an option whose name {@code matches} was given. */
    boolean anyGiven(Predicate<String> matches) {
        return byName.keySet().stream().anyMatch(matches);
    }

    /** How the user wrote {@code name} (its first value, for a repeated one): {@code --name} unless it came from a file or the environment. */
    String of(String name) {
        List<Given> values = byName.get(name);
        return values == null ? "--" + name : values.getFirst().where();
    }

    /**
     * {@code message}, which begins with an option ({@code --root /srv is not a folder}), beginning
     * with the option as the user wrote it instead. For a message from elsewhere than the parser
     * (the server's start, the AJP secret), which knows only the command line's spelling. Of a
     * repeated option, the value right after its name says which one.
     */
    String where(String message) {
        if (!message.startsWith("--")) return message;
        int end = 2;
        while (end < message.length() && (Character.isLetterOrDigit(message.charAt(end)) || message.charAt(end) == '-')) end++;
        List<Given> values = byName.get(message.substring(2, end));
        if (values == null) return message;
        String rest = message.substring(end);
        for (Given value : values) {
            String quoted = " " + value.value();
            boolean named = rest.startsWith(quoted) && (rest.length() == quoted.length() || !isValueChar(rest.charAt(quoted.length())));
            if (named) return value.where() + rest;
        }
        return values.getFirst().where() + rest;
    }

    private static boolean isValueChar(char c) {
        return !Character.isWhitespace(c) && c != ':' && c != ',';
    }
}
