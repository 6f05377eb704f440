package dev.petrel.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The options block of {@code docs/command-line.md} is {@code petrel serve --help}, which the option table makes. */
class OptionsSynopsisTest {
    private static final Path PAGE = Path.of("..", "docs", "command-line.md");
    private static final String BEGIN = "<!-- options:begin -->";
    private static final String END = "<!-- options:end -->";
    /** Run from the repository's root, it rewrites the block from the help. */
    private static final String REGENERATE = "{ sed '/" + BEGIN + "/q' docs/command-line.md; echo '```text'; ./petrel serve --help;"
            + " echo '```'; sed -n '/" + END + "/,$p' docs/command-line.md; } > command-line.md.new"
            + " && mv command-line.md.new docs/command-line.md";

    @Test
    void theDocsOptionsBlockIsTheHelp() throws Exception {
        String page = Files.readString(PAGE);
        int begin = page.indexOf(BEGIN);
        int end = page.indexOf(END);
        assertThat(begin).as("%s: the line %s", PAGE, BEGIN).isNotNegative();
        assertThat(end).as("%s: the line %s, after %s", PAGE, END, BEGIN).isGreaterThan(begin);
        assertThat(page.substring(begin + BEGIN.length(), end))
                .as("the options block of %s, which is ./petrel serve --help in a ```text fence; regenerate it from the"
                        + " repository's root with:%n%s%n", PAGE, REGENERATE)
                .isEqualTo("\n```text\n" + ServeOptions.HELP + "```\n");
    }
}
