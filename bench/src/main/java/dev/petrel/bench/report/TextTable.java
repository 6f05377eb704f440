package dev.petrel.bench.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Table} as plain text for a terminal: columns padded to their widest cell, numbers
 * right-aligned, asides in parentheses as in the Markdown. No escaping: the text goes to a
 * terminal, not to a renderer.
 */
final class TextTable {
    private TextTable() {}

    /** The table's lines, each ending with a line break. */
    static String render(Table table) {
        List<List<String>> lines = new ArrayList<>();
        lines.add(table.columns().stream().map(Table.Column::heading).toList());
        for (Table.Row row : table.rows()) {
            lines.add(row.cells().stream().map(c -> c.aside() == null ? c.text() : c.text() + " (" + c.aside() + ")").toList());
        }
        int[] widths = new int[table.columns().size()];
        for (List<String> line : lines) {
            for (int i = 0; i < line.size(); i++) widths[i] = Math.max(widths[i], line.get(i).length());
        }
        StringBuilder out = new StringBuilder();
        for (List<String> line : lines) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < line.size(); i++) {
                if (i > 0) text.append("  ");
                String cell = line.get(i);
                String pad = " ".repeat(widths[i] - cell.length());
                text.append(table.columns().get(i).numeric() ? pad + cell : cell + pad);
            }
            out.append(text.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }
}
