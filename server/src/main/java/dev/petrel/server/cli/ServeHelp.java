package dev.petrel.server.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code petrel serve --help}, made from {@link ServeOptionTable}: each group under its heading,
 * each option's synopsis in a column of its own and its help wrapped beside it. The block between
 * {@code <!-- options:begin -->} and {@code <!-- options:end -->} in {@code docs/command-line.md}
 * is this text (a test compares them).
 */
final class ServeHelp {
    private static final String INTRO = """
            Usage: petrel serve [options]

            Serves the demo site: / answers HelloWorld, /date a page with the date,
            POST /echo echoes its body, everything else is a static file under --root.
            """;
    /** Where an option's help begins: two spaces, then its synopsis in 24 columns at least. */
    private static final int HELP_COLUMN = 26;
    /** The widest line: an 80-column terminal wraps a few, a wider one or a page none. */
    private static final int WIDTH = 90;

    private ServeHelp() {}

    static String render(List<OptionGroup> groups) {
        StringBuilder help = new StringBuilder(INTRO);
        for (OptionGroup group : groups) {
            help.append('\n').append(group.heading()).append('\n');
            for (Option<?> option : group.options()) append(help, option);
            if (group.footnote() != null) help.append(group.footnote()).append('\n');
        }
        return help.toString();
    }

    private static void append(StringBuilder help, Option<?> option) {
        String synopsis = "  " + option.synopsis();
        String text = option.help() + (option.byDefault() != null ? " (default " + option.byDefault() + ")" : "");
        List<String> lines = wrap(text, WIDTH - HELP_COLUMN);
        if (synopsis.length() < HELP_COLUMN) {
            help.append(synopsis).append(" ".repeat(HELP_COLUMN - synopsis.length())).append(lines.getFirst()).append('\n');
            lines = lines.subList(1, lines.size());
        } else {
            help.append(synopsis).append('\n');
        }
        for (String line : lines) help.append(" ".repeat(HELP_COLUMN)).append(line).append('\n');
    }

    /** {@code text} in lines of at most {@code width} characters, broken at spaces (a longer word has a line of its own). */
    private static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (!line.isEmpty() && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (!line.isEmpty()) line.append(' ');
            line.append(word);
        }
        lines.add(line.toString());
        return lines;
    }
}
