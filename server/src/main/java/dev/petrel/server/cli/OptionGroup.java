package dev.petrel.server.cli;

import java.util.List;

/**
 * Options the help shows together, under a heading.
 *
 * @param heading the line above them, e.g. {@code Timeouts and limits:}
 * @param options the options, in the help's order
 * @param footnote a line below them, or null
 */
record OptionGroup(String heading, List<Option<?>> options, String footnote) {
    OptionGroup(String heading, Option<?>... options) {
        this(heading, List.of(options), null);
    }

    OptionGroup {
        options = List.copyOf(options);
    }

    OptionGroup withFootnote(String line) {
        return new OptionGroup(heading, options, line);
    }
}
