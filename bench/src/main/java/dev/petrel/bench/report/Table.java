package dev.petrel.bench.report;

import java.util.List;

/**
 * A table as both report formats draw it: plain text cells, with a small aside (a min–max range,
 * a "best peer" mark) and a row style. Built once by {@link Tables}, rendered by
 * {@link MarkdownReport} and {@link HtmlReport}.
 *
 * @param heading the heading above it
 * @param columns the columns
 * @param rows the rows
 */
record Table(String heading, List<Column> columns, List<Row> rows) {

    /**
     * A column.
     *
     * @param heading the heading text
     * @param numeric right-aligned
     */
    record Column(String heading, boolean numeric) {}

    /**
     * A row.
     *
     * @param style how it stands out
     * @param cells one per column
     */
    record Row(Style style, List<Cell> cells) {}

    /**
     * A cell: plain text (renderers escape it) and an optional aside shown smaller, in
     * parentheses in Markdown.
     *
     * @param text the main text
     * @param aside extra text, or {@code null}
     */
    record Cell(String text, String aside) {
        static Cell of(String text) {
            return new Cell(text, null);
        }
    }

    /** Row styles: Petrel rows are bold, the best peer is highlighted, missing results are muted. */
    enum Style { PLAIN, PETREL, BEST_PEER, NO_RESULT }
}
