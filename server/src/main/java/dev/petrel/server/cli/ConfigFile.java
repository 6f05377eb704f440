package dev.petrel.server.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Reads the properties file of {@code --config FILE} into the values of {@link ServeOptionTable}'s
 * options: each option's key is its name ({@code port=8080}); a flag's value is {@code true} or
 * {@code false}; a repeatable option repeats with a suffix ({@code trusted-proxy.1=...},
 * {@code trusted-proxy.2=...}), its values in the order of the suffixes, and {@code tls-key.N}
 * pairs with {@code tls-cert.N}. The JDK's own format: flat keys and values need no library.
 */
final class ConfigFile {
    private ConfigFile() {}

    /**
     * The values of {@code file}, in the order they land (see {@link NamedValues#inOrder()}).
     *
     * @throws UsageException for a file that cannot be read, or a key that is not an option or
     *         does not repeat, naming the key; a bad value is told when it is read, if nothing
     *         stronger replaces it
     */
    static List<Given> read(Path file) throws UsageException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        } catch (IOException e) {
            throw new UsageException("--config " + file + ": cannot be read (" + e.getMessage() + ")");
        }
        NamedValues values = new NamedValues();
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            String name = key;
            int index = 0;
            int dot = key.lastIndexOf('.');
            if (dot > 0 && dot < key.length() - 1 && key.substring(dot + 1).chars().allMatch(Character::isDigit)) {
                name = key.substring(0, dot);
                index = Integer.parseInt(key.substring(dot + 1));
                Option<?> option = ServeOptionTable.named(name);
                if (option == null || !option.repeatable()) {
                    throw new UsageException("--config " + file + ": '" + key + "': only " + repeatableNames() + " repeat with .N");
                }
            }
            values.add(name, index, properties.getProperty(key).strip(), "--config " + file + ": key '" + key + "'");
        }
        return values.inOrder();
    }

    private static String repeatableNames() {
        return ServeOptionTable.ALL.stream().filter(Option::repeatable).map(Option::name).sorted().collect(Collectors.joining(", "));
    }
}
