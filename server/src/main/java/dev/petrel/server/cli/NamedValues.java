package dev.petrel.server.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Values given by an option's name rather than on the command line: a {@code --config} file's keys
 * and {@code PETREL_*} variables. What both check as they read, and the order their values land
 * in: the options in the table's order, each option's values by their index, the key of a
 * certificate right after it.
 */
final class NamedValues {
    /** Each option's values by index (a config file's {@code .N}, a position in a variable), in the table's order. */
    private final Map<Option<?>, TreeMap<Integer, Given>> byOption = new TreeMap<>(Comparator.comparingInt(ServeOptionTable.ALL::indexOf));

    /**
     * Adds the value {@code index} of the option {@code name}, written at {@code where}.
     *
     * @throws UsageException beginning with {@code where}, for a name that is not an option, a flag
     *         that is not {@code true} or {@code false}, or a value that is empty
     */
    void add(String name, int index, String value, String where) throws UsageException {
        Option<?> option = ServeOptionTable.named(name);
        if (option != null && option.commandLineOnly()) throw new UsageException(where + ": a config file cannot name another");
        if (option == null) throw new UsageException(where + " is not an option of petrel serve (see petrel serve --help)");
        if (option.isFlag() && !value.equals("true") && !value.equals("false")) {
            throw new UsageException(where + " takes true or false, not '" + value + "'");
        }
        if (value.isEmpty()) throw new UsageException(where + " needs a value");
        byOption.computeIfAbsent(option, o -> new TreeMap<>()).put(index, new Given(option, value, where));
    }

    /**
     * The values in the order they land, each {@code tls-key} after the {@code tls-cert} of its index.
     *
     * @throws UsageException for a key without the certificate of its index
     */
    List<Given> inOrder() throws UsageException {
        Map<String, TreeMap<Integer, Given>> unpaired = new TreeMap<>(); // the followers' values not yet placed, by leader
        byOption.forEach((option, values) -> {
            if (option.follows() != null) unpaired.put(option.follows(), new TreeMap<>(values));
        });
        List<Given> ordered = new ArrayList<>();
        for (Map.Entry<Option<?>, TreeMap<Integer, Given>> option : byOption.entrySet()) {
            if (option.getKey().follows() != null) continue; // each lands after its leader's value
            TreeMap<Integer, Given> followers = unpaired.getOrDefault(option.getKey().name(), new TreeMap<>());
            for (Map.Entry<Integer, Given> value : option.getValue().entrySet()) {
                ordered.add(value.getValue());
                Given follower = followers.remove(value.getKey());
                if (follower != null) ordered.add(follower);
            }
        }
        for (Map.Entry<String, TreeMap<Integer, Given>> left : unpaired.entrySet()) {
            if (left.getValue().isEmpty()) continue;
            Given stray = left.getValue().firstEntry().getValue();
            throw new UsageException(stray.where() + " " + stray.value() + " must follow its --" + left.getKey());
        }
        return ordered;
    }
}
