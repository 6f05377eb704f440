package dev.petrel.server.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the {@code PETREL_*} environment variables that name an option of
 * {@link ServeOptionTable}: {@code PETREL_} and the name in upper case with underscores
 * ({@code PETREL_PORT}, {@code PETREL_ACCESS_LOG}). A repeatable option's variable holds its
 * values separated by spaces ({@code PETREL_LISTEN='http://[::]:80 https://[::]:443'}), unless a
 * value may hold spaces itself ({@code --cache-control}): then it holds one.
 */
final class EnvironmentVariables {
    private static final String PREFIX = "PETREL_";

    private EnvironmentVariables() {}

    /**
     * The values of the variables of {@code environment} that name an option; others
     * ({@code PETREL_JAVA_OPTS}, {@code PETREL_TLS_PASSWORD}, ...) are not options and are left alone.
     */
    static List<Given> read(Map<String, String> environment) throws UsageException {
        NamedValues values = new NamedValues();
        for (Map.Entry<String, String> variable : new TreeMap<>(environment).entrySet()) {
            if (!variable.getKey().startsWith(PREFIX)) continue;
            Option<?> option = ServeOptionTable.named(variable.getKey().substring(PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '-'));
            if (option == null || option.commandLineOnly()) continue;
            String value = variable.getValue().strip();
            String where = "environment variable " + variable.getKey();
            boolean list = option.repeatable() && option.value() instanceof OptionValue.Valued<?> valued && !valued.mayHoldSpaces();
            List<String> each = list && !value.isEmpty() ? List.of(value.split("\\s+")) : List.of(value);
            for (int i = 0; i < each.size(); i++) values.add(option.name(), i, each.get(i), where);
        }
        return values.inOrder();
    }
}
