package dev.petrel.server.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code petrel serve}'s settings from three places, turned into one command line for
 * {@link ServeOptions#parse}: a properties file ({@code --config FILE}), {@code PETREL_*}
 * environment variables, and the command line itself. Precedence: command line, then environment,
 * then file, then the defaults; an option given in a stronger place replaces all its values from
 * weaker ones (a repeatable option is not merged across places).
 *
 * <p>Every option has a key: its name without the dashes ({@code port=8080},
 * {@code access-log=/var/log/petrel/access.log}); a flag takes {@code true} or {@code false}; a
 * repeatable option repeats with a suffix ({@code trusted-proxy.1=10.0.0.0/8},
 * {@code trusted-proxy.2=192.168.0.0/16}), in the order of the suffixes, and {@code tls-cert.N}
 * pairs with {@code tls-key.N}. Its environment variable is {@code PETREL_} and the name in upper
 * case with underscores ({@code PETREL_PORT}, {@code PETREL_ACCESS_LOG}). The properties format
 * is the JDK's own: no library is needed for flat keys and values.
 *
 * <p>A message about an option begins with the option ({@code --port takes a whole number ...});
 * for an option given in the file or the environment, {@link Merged#where} begins it with the key
 * or the variable instead, so that the user finds the value where it was written.
 */
final class ConfigSources {
    /** Options that take a value. */
    static final Set<String> VALUED = Set.of("host", "port", "root", "transport", "max-connections", "queue-timeout",
            "shutdown-grace", "min-body-rate", "min-response-rate", "rate-grace", "body-timeout", "head-timeout-when-full",
            "log-level", "access-log", "access-log-format", "https-port", "tls-password-file", "tls-dir", "tls-client-auth",
            "tls-trust", "admin-port", "admin-host", "ajp-port", "ajp-host", "ajp-secret", "ajp-secret-file", "ajp-packet-size", "header-timeout",
            "idle-timeout", "body-read-timeout", "write-timeout", "max-requests-per-connection", "max-drain-bytes",
            "response-buffer-size", "max-body-size", "max-request-line", "max-header-size", "max-headers", "tls-protocols",
            "tls-ciphers", "tls-handshake-timeout", "tls-engine", "tls-ocsp-response", "h2-max-streams", "h2-stream-window",
            "h2-connection-window", "h2-max-resets", "h2-max-control-frames", "h2-max-empty-frames");
    /** Options that may be given more than once. */
    static final Set<String> REPEATABLE = Set.of("trusted-proxy", "cache-control", "tls-cert", "tls-key", "ajp-allow-attribute");
    /** Options without a value. */
    static final Set<String> FLAGS = Set.of("proxy-protocol", "demo", "https", "no-http", "ajp-no-secret", "gzip", "no-http2", "h2c");

    private ConfigSources() {}

    /** An option's values from the file or the environment, each with where it was written ("environment variable PETREL_PORT"). */
    record Given(List<String> values, List<String> places) {}

    /**
     * The command line {@code petrel serve} was given, with the file and the environment merged in.
     *
     * @param args the command line {@link ServeOptions#parse} reads
     * @param elsewhere the options (by name) whose values came from the file or the environment
     */
    record Merged(List<String> args, Map<String, Given> elsewhere) {
        /** Parses {@link #args}; a mistake in a value from the file or the environment names where it was written. */
        ServeOptions parse() throws UsageException {
            try {
                return ServeOptions.parse(args);
            } catch (UsageException e) {
                throw new UsageException(where(e.getMessage()));
            }
        }

        /**
         * {@code message}, which begins with the option it is about ({@code --port takes ...}), as the
         * user wrote the option: unchanged for the command line, else beginning with the key in the
         * file ({@code --config FILE: key 'port' takes ...}) or the environment variable
         * ({@code environment variable PETREL_PORT takes ...}).
         */
        String where(String message) {
            Matcher subject = SUBJECT.matcher(message);
            if (!subject.lookingAt()) return message;
            Given given = elsewhere.get(subject.group(1));
            if (given == null) return message;
            int index = 0; // of a repeated option's values, the one the message quotes
            for (int i = 0; i < given.values().size(); i++) {
                if (message.contains(given.values().get(i))) {
                    index = i;
                    break;
                }
            }
            return given.places().get(index) + message.substring(subject.end());
        }
    }

    /** The option a message begins with. */
    private static final Pattern SUBJECT = Pattern.compile("--([a-z0-9-]+)(?![a-z0-9-])");

    /**
     * The command line {@code cli} stands for once {@code --config FILE} (if any) and the
     * environment are added under it.
     *
     * @throws UsageException for a config file that cannot be read, an unknown key or a bad flag value, naming it
     */
    static Merged merge(List<String> cli, Map<String, String> environment) throws UsageException {
        List<String> rest = new ArrayList<>();
        Path file = null;
        for (int i = 0; i < cli.size(); i++) {
            String arg = cli.get(i);
            if (arg.equals("--config")) {
                if (i + 1 >= cli.size()) throw new UsageException("--config needs a file");
                file = Path.of(cli.get(++i));
            } else if (arg.startsWith("--config=")) {
                file = Path.of(arg.substring("--config=".length()));
            } else {
                rest.add(arg);
            }
        }
        Map<String, Given> merged = new LinkedHashMap<>();
        if (file != null) merged.putAll(fromFile(file));
        merged.putAll(fromEnvironment(environment));
        Set<String> onCommandLine = namesOn(rest);
        merged.keySet().removeIf(onCommandLine::contains);
        List<String> args = new ArrayList<>();
        List<String> keys = merged.containsKey("tls-key") ? merged.get("tls-key").values() : List.of();
        for (Map.Entry<String, Given> option : merged.entrySet()) {
            String name = option.getKey();
            if (name.equals("tls-key")) continue; // each follows its tls-cert
            List<String> values = option.getValue().values();
            for (int i = 0; i < values.size(); i++) {
                String value = values.get(i);
                if (FLAGS.contains(name)) {
                    if (value.equals("true")) args.add("--" + name);
                    continue;
                }
                args.add("--" + name);
                args.add(value);
                if (name.equals("tls-cert") && i < keys.size() && !keys.get(i).isEmpty()) {
                    args.add("--tls-key");
                    args.add(keys.get(i));
                }
            }
        }
        args.addAll(rest);
        return new Merged(List.copyOf(args), Map.copyOf(merged));
    }

    private static Map<String, Given> fromFile(Path file) throws UsageException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        } catch (IOException e) {
            throw new UsageException("--config " + file + ": cannot be read (" + e.getMessage() + ")");
        }
        Map<String, TreeMap<Integer, String>> indexed = new LinkedHashMap<>(); // each option's keys, by their index
        for (String key : new TreeMap<>(Map.copyOf(asStrings(properties))).keySet()) {
            String value = properties.getProperty(key).strip();
            String name = key;
            int index = 0;
            int dot = key.lastIndexOf('.');
            if (dot > 0 && key.substring(dot + 1).chars().allMatch(Character::isDigit) && dot < key.length() - 1) {
                name = key.substring(0, dot);
                index = Integer.parseInt(key.substring(dot + 1));
                if (!REPEATABLE.contains(name)) throw new UsageException("--config " + file + ": '" + key + "': only "
                        + String.join(", ", new java.util.TreeSet<>(REPEATABLE)) + " repeat with .N");
            }
            check(name, value, place(file, key));
            indexed.computeIfAbsent(name, n -> new TreeMap<>()).put(index, key);
        }
        Map<String, Given> options = new LinkedHashMap<>();
        indexed.forEach((name, keys) -> options.put(name, new Given(
                keys.values().stream().map(key -> properties.getProperty(key).strip()).toList(),
                keys.values().stream().map(key -> place(file, key)).toList())));
        return options;
    }

    private static String place(Path file, String key) {
        return "--config " + file + ": key '" + key + "'";
    }

    private static Map<String, String> asStrings(Properties properties) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String name : properties.stringPropertyNames()) map.put(name, properties.getProperty(name));
        return map;
    }

    /** {@code PETREL_*} variables that name an option; others (PETREL_JAVA_OPTS, PETREL_TLS_PASSWORD, ...) are not options. */
    private static Map<String, Given> fromEnvironment(Map<String, String> environment) throws UsageException {
        Map<String, Given> options = new TreeMap<>();
        for (Map.Entry<String, String> variable : environment.entrySet()) {
            if (!variable.getKey().startsWith("PETREL_")) continue;
            String name = variable.getKey().substring("PETREL_".length()).toLowerCase(Locale.ROOT).replace('_', '-');
            if (!VALUED.contains(name) && !REPEATABLE.contains(name) && !FLAGS.contains(name)) continue;
            String value = variable.getValue().strip();
            String place = "environment variable " + variable.getKey();
            check(name, value, place);
            // a repeatable option's variable holds its values separated by spaces (none contains one, cache-control aside)
            List<String> values = REPEATABLE.contains(name) && !name.equals("cache-control")
                    ? List.of(value.split("\\s+")) : List.of(value);
            options.put(name, new Given(values, java.util.Collections.nCopies(values.size(), place)));
        }
        return options;
    }

    private static void check(String name, String value, String where) throws UsageException {
        if (name.equals("config")) throw new UsageException(where + ": a config file cannot name another");
        if (!VALUED.contains(name) && !REPEATABLE.contains(name) && !FLAGS.contains(name)) {
            throw new UsageException(where + " is not an option of petrel serve (see petrel serve --help)");
        }
        if (FLAGS.contains(name) && !value.equals("true") && !value.equals("false")) {
            throw new UsageException(where + " takes true or false, not '" + value + "'");
        }
        if (!FLAGS.contains(name) && value.isEmpty()) throw new UsageException(where + " needs a value");
    }

    /** The option names given on the command line. */
    private static Set<String> namesOn(List<String> args) {
        Set<String> names = new java.util.HashSet<>();
        for (String arg : args) {
            if (!arg.startsWith("--")) continue;
            int equals = arg.indexOf('=');
            names.add(equals < 0 ? arg.substring(2) : arg.substring(2, equals));
        }
        return names;
    }
}
