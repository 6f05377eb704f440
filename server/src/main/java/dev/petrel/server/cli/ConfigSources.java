package dev.petrel.server.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code petrel serve}'s settings from three places: a properties file ({@code --config FILE},
 * {@link ConfigFile}), {@code PETREL_*} environment variables ({@link EnvironmentVariables}) and
 * the command line itself ({@link CommandLine}), each read as {@link ServeOptionTable} declares the
 * options. Precedence: command line, then environment, then file, then the defaults; an option
 * given in a stronger place replaces all its values from weaker ones (a repeatable option is not
 * merged across places, and a certificate and its key go together). A value replaced so is never
 * read.
 *
 * <p>A message about an option begins with the option as the user wrote it: {@code --port takes
 * ...} on the command line, {@code --config FILE: key 'port' takes ...} or {@code environment
 * variable PETREL_PORT takes ...} elsewhere (see {@link Given#where()} and {@link Places}).
 */
final class ConfigSources {
    private ConfigSources() {}

    /**
     * The values in effect once the places are merged, in the order they land.
     *
     * @param given the values: the file's and the environment's not replaced by a stronger place, then the command line's
     * @param places where each was given, for messages found after parsing (the server's start)
     */
    record Merged(List<Given> given, Places places) {
        /** Reads every value into the settings; a mistake in one begins with where it was written. */
        ServeOptions parse() throws UsageException {
            ServeSettings settings = new ServeSettings(places);
            for (Given value : given) value.option().land(settings, value);
            return settings.build();
        }
    }

    /**
     * The values of {@code cli}, with {@code --config FILE} (if any) and {@code environment} under it.
     *
     * @throws UsageException for a config file that cannot be read, an unknown option or key, a bad flag value, naming it
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
        List<Given> fromFile = file != null ? ConfigFile.read(file) : List.of();
        List<Given> fromEnvironment = EnvironmentVariables.read(environment);
        List<Given> fromCommandLine = CommandLine.read(rest);
        Set<String> onCommandLine = precedenceNames(fromCommandLine);
        Set<String> inEnvironment = precedenceNames(fromEnvironment);
        List<Given> inEffect = new ArrayList<>();
        for (Given value : fromFile) {
            String name = value.option().precedenceName();
            if (!onCommandLine.contains(name) && !inEnvironment.contains(name)) inEffect.add(value);
        }
        for (Given value : fromEnvironment) {
            if (!onCommandLine.contains(value.option().precedenceName())) inEffect.add(value);
        }
        inEffect.addAll(fromCommandLine);
        // a flag set false has replaced the same flag from a weaker place; beyond that it says nothing
        inEffect.removeIf(value -> value.option().isFlag() && value.value().equals("false"));
        return new Merged(List.copyOf(inEffect), new Places(inEffect));
    }

    private static Set<String> precedenceNames(List<Given> given) {
        Set<String> names = new HashSet<>();
        for (Given value : given) names.add(value.option().precedenceName());
        return names;
    }
}
