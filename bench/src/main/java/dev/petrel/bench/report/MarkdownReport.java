package dev.petrel.bench.report;

import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.report.Outline.Block;
import dev.petrel.bench.report.Outline.Fact;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Renders an {@link Outline} as GitHub-flavoured Markdown that also reads well as plain text:
 * ranges in parentheses rather than HTML, numbers right-aligned, and only the response samples
 * folded into a {@code <details>} block.
 */
final class MarkdownReport {
    private MarkdownReport() {}

    /** The Markdown text of {@code blocks}. */
    static String render(List<Block> blocks) {
        StringBuilder out = new StringBuilder(8192);
        for (Block block : blocks) {
            switch (block) {
                case Outline.Heading h -> out.append("#".repeat(h.level())).append(' ').append(Escape.markdown(h.text()));
                case Outline.Prose p -> out.append(p.markdown().strip());
                case Outline.Text t -> out.append(Escape.markdown(t.text()));
                case Outline.Warning w -> out.append("**").append(Escape.markdown(w.text())).append("**");
                case Outline.Facts f -> facts(out, f.facts());
                case Outline.TableBlock t -> table(out, t.table());
                case Outline.Samples s -> samples(out, s.servers());
                case Outline.Images i -> i.charts().forEach(c -> out.append("![").append(alt(c.title())).append("](")
                        .append(c.file()).append(")\n\n"));
                case Outline.Items i -> i.items().forEach(item -> out.append("- ").append(Escape.markdown(item)).append('\n'));
            }
            // one blank line between blocks; blocks that end with their own are trimmed first
            while (out.length() > 0 && out.charAt(out.length() - 1) == '\n') out.setLength(out.length() - 1);
            out.append("\n\n");
        }
        out.setLength(out.length() - 1);
        return out.toString();
    }

    private static void facts(StringBuilder out, List<Fact> facts) {
        for (Fact f : facts) {
            out.append("- **").append(Escape.markdown(f.key())).append(":** ")
                    .append(f.code() ? Escape.markdownCode(f.value()) : Escape.markdown(f.value())).append('\n');
        }
    }

    private static void table(StringBuilder out, Table table) {
        out.append('|');
        for (Table.Column c : table.columns()) out.append(' ').append(Escape.markdownCell(c.heading())).append(" |");
        out.append("\n|");
        for (Table.Column c : table.columns()) out.append(c.numeric() ? " ---: |" : " --- |");
        out.append('\n');
        for (Table.Row row : table.rows()) {
            out.append('|');
            for (int i = 0; i < row.cells().size(); i++) {
                Table.Cell cell = row.cells().get(i);
                String text = Escape.markdownCell(cell.text());
                // Petrel's rows are what a reader looks for first
                if (i == 0 && row.style() == Table.Style.PETREL && !text.isEmpty()) text = "**" + text + "**";
                if (cell.aside() != null) text += " (" + Escape.markdownCell(cell.aside()) + ")";
                out.append(' ').append(text).append(text.isEmpty() ? "|" : " |");
            }
            out.append('\n');
        }
    }

    private static void samples(StringBuilder out, List<ServerInfo> servers) {
        out.append("<details>\n<summary>Each server's exact response to <code>GET /</code></summary>\n\n");
        for (ServerInfo s : servers) {
            out.append("**").append(Escape.markdown(s.name())).append("**");
            if (s.responseSample() == null) {
                out.append(": not captured\n\n");
                continue;
            }
            String shown = s.responseSample().replace("\r\n", "\n");
            String fence = Escape.markdownFence(shown);
            out.append(" (").append(s.responseSample().getBytes(StandardCharsets.UTF_8).length)
                    .append(" bytes; CRLF shown as line breaks)\n\n")
                    .append(fence).append("http\n").append(shown);
            if (!shown.endsWith("\n")) out.append('\n');
            out.append(fence).append("\n\n");
        }
        out.append("</details>\n");
    }

    /** Image alt text: brackets would end the link text early. */
    private static String alt(String title) {
        return Escape.markdown(title).replace("[", "\\[").replace("]", "\\]");
    }
}
