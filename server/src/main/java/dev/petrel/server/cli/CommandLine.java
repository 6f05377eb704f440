package dev.petrel.server.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@code petrel serve}'s command line into the values of {@link ServeOptionTable}'s options:
 * {@code --name value} or {@code --name=value}, a flag alone. Each value keeps its place in the
 * line, so that a repeated option keeps its order and a {@code --tls-key} follows its {@code --tls-cert}.
 */
final class CommandLine {
    private CommandLine() {}

    /** The values of {@code args}, in their order. */
    static List<Given> read(List<String> args) throws UsageException {
        List<Given> given = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String name = arg;
            String value = null;
            int equals = arg.indexOf('=');
            if (arg.startsWith("--") && equals > 0) {
                name = arg.substring(0, equals);
                value = arg.substring(equals + 1);
            }
            Option<?> option = name.startsWith("--") ? ServeOptionTable.named(name.substring(2)) : null;
            if (option == null) throw new UsageException("unknown option '" + arg + "'");
            if (option.value() instanceof OptionValue.Flag flag) {
                if (value != null) throw new UsageException(name + " takes no value" + (flag.hint() != null ? "; " + flag.hint() : ""));
                value = "true";
            } else if (value == null) {
                if (++i >= args.size()) throw new UsageException(name + " needs a value");
                value = args.get(i);
            }
            given.add(new Given(option, value, name));
        }
        return given;
    }
}
