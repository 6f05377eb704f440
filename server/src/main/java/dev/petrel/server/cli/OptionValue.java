package dev.petrel.server.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The type of an option's value: how the help shows it ({@code N}, {@code SECS}, {@code FILE}) and
 * how its text is read. A mistake is a {@link UsageException} whose message begins with the
 * {@code subject} it is given, that is where the value was written ({@code --port},
 * {@code environment variable PETREL_PORT}, ...), so that every source reports it alike.
 *
 * @param <T> the value read
 */
sealed interface OptionValue<T> {
    /**
     * An option without a value: given or not. In a config file or the environment it is
     * {@code true} or {@code false}.
     *
     * @param hint what {@code --flag=value} is told besides "takes no value", or null
     */
    record Flag(String hint) implements OptionValue<Boolean> {}

    /**
     * An option with a value.
     *
     * @param label the value's placeholder in the help
     * @param reader reads the text
     * @param mayHoldSpaces whether one value may hold spaces: a repeatable option's environment
     *        variable then holds one value rather than a list split at spaces
     */
    record Valued<T>(String label, Reader<T> reader, boolean mayHoldSpaces) implements OptionValue<T> {}

    /** Reads a value's text. */
    @FunctionalInterface
    interface Reader<T> {
        T read(String text, String subject) throws UsageException;
    }

    static Flag flag() {
        return new Flag(null);
    }

    /** A flag; {@code --flag=value} is told {@code hint} too (e.g. "the port is --https-port N"). */
    static Flag flag(String hint) {
        return new Flag(hint);
    }

    /** Any text. */
    static Valued<String> text(String label) {
        return new Valued<>(label, (text, subject) -> text, false);
    }

    static Valued<Path> path(String label) {
        return new Valued<>(label, (text, subject) -> Path.of(text), false);
    }

    /** A whole number from {@code min} to {@code max}. */
    static Valued<Integer> wholeNumber(String label, int min, int max) {
        return new Valued<>(label, (text, subject) -> (int) whole(text, subject, min, max), false);
    }

    /** A size in bytes from {@code min} to {@code max}. */
    static Valued<Integer> size(int min, int max) {
        return wholeNumber("BYTES", min, max);
    }

    /** A size in bytes from {@code min} to {@code max}, beyond what an int holds. */
    static Valued<Long> longSize(long min, long max) {
        return new Valued<>("BYTES", (text, subject) -> whole(text, subject, min, max), false);
    }

    /** A whole number of seconds from {@code min} to {@code max}. */
    static Valued<Duration> seconds(int min, int max) {
        return new Valued<>("SECS", (text, subject) -> Duration.ofSeconds(whole(text, subject, min, max)), false);
    }

    /** One of the names of {@code choices} (in the order the message lists them): "takes a, b or c". */
    static <T> Valued<T> oneOf(String label, Map<String, T> choices) {
        List<String> names = List.copyOf(choices.keySet());
        String listed = names.size() == 1 ? names.getFirst()
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.getLast();
        return oneOf(label, listed, choices);
    }

    /** The same, the names listed in the message as {@code listed}. */
    static <T> Valued<T> oneOf(String label, String listed, Map<String, T> choices) {
        return new Valued<>(label, (text, subject) -> {
            T value = choices.get(text);
            if (value == null) throw new UsageException(subject + " takes " + listed + ", not '" + text + "'");
            return value;
        }, false);
    }

    /** A comma-separated list of names (protocols, cipher suites), blanks around them dropped. */
    static Valued<List<String>> names(String label) {
        return new Valued<>(label, (text, subject) -> {
            List<String> names = new ArrayList<>();
            for (String name : text.split(",")) {
                if (!name.isBlank()) names.add(name.strip());
            }
            if (names.isEmpty()) throw new UsageException(subject + " takes a comma-separated list of names");
            return List.copyOf(names);
        }, false);
    }

    /** A value of its own kind (a CIDR block, a URL, ...), read by {@code reader}. */
    static <T> Valued<T> of(String label, Reader<T> reader) {
        return new Valued<>(label, reader, false);
    }

    /** The same, for values that may hold spaces (see {@link Valued#mayHoldSpaces}). */
    static <T> Valued<T> withSpaces(String label, Reader<T> reader) {
        return new Valued<>(label, reader, true);
    }

    private static long whole(String text, String subject, long min, long max) throws UsageException {
        try {
            long value = Long.parseLong(text);
            if (value >= min && value <= max) return value;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(subject + " takes a whole number from " + min + " to " + max + ", not '" + text + "'");
    }
}
