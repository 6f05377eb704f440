package dev.petrel.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The table of options in docs/command-line.md, which explains each option with links, names every
 * option of {@code petrel serve --help}; the help block above it is checked whole by
 * {@link OptionsSynopsisTest}.
 */
class OptionsTableTest {
    @Test
    void theTableNamesEveryOptionOfTheHelp() throws Exception {
        Set<String> inHelp = new LinkedHashSet<>();
        Matcher option = Pattern.compile("(?m)^ {2}(--[a-z0-9-]+)").matcher(ServeOptions.HELP);
        while (option.find()) inHelp.add(option.group(1));
        assertThat(inHelp).contains("--port", "--listen", "--admin-port", "--ajp-port"); // the help was read

        String page = Files.readString(Path.of("..", "docs", "command-line.md"));
        int start = page.indexOf("\n## Options\n");
        assertThat(start).as("docs/command-line.md has an Options section").isNotNegative();
        String section = page.substring(start, page.indexOf("\n## ", start + 1));
        String table = section.substring(section.indexOf("| Option |"));
        for (String name : inHelp) {
            assertThat(table).as("docs/command-line.md's option table").contains("`" + name + "`");
        }
    }
}
