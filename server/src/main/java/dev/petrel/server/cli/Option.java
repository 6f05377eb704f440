package dev.petrel.server.cli;

import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * One option of {@code petrel serve}, declared once in {@link ServeOptionTable}: everything else
 * (the command line, the {@code --config} keys, the {@code PETREL_*} variables, the help and the
 * docs' synopsis) is read from here.
 *
 * @param name the name without the dashes: the config file's key; {@code PETREL_} and the name in
 *        upper case with underscores is its environment variable
 * @param value its type
 * @param lands how a value lands in the settings
 * @param help what the help says of it, one paragraph (wrapped by {@link ServeHelp})
 * @param byDefault the default the help names, or null when the help says what happens without it
 * @param repeatable whether it may be given more than once, each value kept ({@code name.1},
 *        {@code name.2} in a config file; values separated by spaces in the environment)
 * @param follows the repeatable option whose values this one's pair with ({@code tls-key} follows
 *        {@code tls-cert}: on the command line each after its own, in a file {@code tls-key.N} with
 *        {@code tls-cert.N}), or null
 * @param commandLineOnly whether it has no key and no variable ({@code --config} itself)
 * @param <T> the type of its value
 */
record Option<T>(String name, OptionValue<T> value, Lands<T> lands, String help, String byDefault, boolean repeatable,
                 String follows, boolean commandLineOnly) {
    /** Puts a value into the settings; a mistake is a message beginning with {@link Given#where()}. */
    @FunctionalInterface
    interface Lands<T> {
        void into(ServeSettings settings, T value, Given given) throws UsageException;
    }

    /** An option with a value that {@code sets} puts into the settings as it is. */
    static <T> Option<T> option(String name, OptionValue.Valued<T> value, BiConsumer<ServeSettings, T> sets) {
        return option(name, value, (settings, read, given) -> sets.accept(settings, read));
    }

    /** An option with a value that {@code lands} checks against what is there already, or records with where it was given. */
    static <T> Option<T> option(String name, OptionValue.Valued<T> value, Lands<T> lands) {
        return new Option<>(name, value, lands, "", null, false, null, false);
    }

    /** A flag: {@code sets} runs when it is given (a {@code false} from a file or the environment gives nothing). */
    static Option<Boolean> flag(String name, OptionValue.Flag flag, Consumer<ServeSettings> sets) {
        return new Option<>(name, flag, (settings, on, given) -> sets.accept(settings), "", null, false, null, false);
    }

    Option<T> help(String text) {
        return new Option<>(name, value, lands, text, byDefault, repeatable, follows, commandLineOnly);
    }

    /** The default as the help names it: a number, a word, a path. */
    Option<T> byDefault(Object shown) {
        return new Option<>(name, value, lands, help, String.valueOf(shown), repeatable, follows, commandLineOnly);
    }

    Option<T> repeated() {
        return new Option<>(name, value, lands, help, byDefault, true, follows, commandLineOnly);
    }

    Option<T> follows(String leader) {
        return new Option<>(name, value, lands, help, byDefault, true, leader, commandLineOnly);
    }

    Option<T> onCommandLineOnly() {
        return new Option<>(name, value, lands, help, byDefault, repeatable, follows, true);
    }

    boolean isFlag() {
        return value instanceof OptionValue.Flag;
    }

    /** How the help shows it: {@code --port N}, {@code --gzip}. */
    String synopsis() {
        return "--" + name + (value instanceof OptionValue.Valued<T> valued ? " " + valued.label() : "");
    }

    /**
     * The option whose place among the sources this one shares: a stronger place that gives either
     * of a pair ({@code tls-cert}, {@code tls-key}) replaces both from weaker ones, so that a
     * certificate never pairs with a key from somewhere else.
     */
    String precedenceName() {
        return follows != null ? follows : name;
    }

    /** Reads {@code given} and puts it into {@code settings}. */
    void land(ServeSettings settings, Given given) throws UsageException {
        T read = switch (value) {
            case OptionValue.Flag flag -> null; // a flag that reaches here is on
            case OptionValue.Valued<T> valued -> valued.reader().read(given.value(), given.where());
        };
        lands.into(settings, read, given);
    }
}
