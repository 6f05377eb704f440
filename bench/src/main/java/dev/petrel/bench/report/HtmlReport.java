package dev.petrel.bench.report;

import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.report.Outline.Block;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Renders an {@link Outline} as one self-contained HTML page: inline CSS, no script, charts
 * embedded with {@code <img>} from the same directory. All text is escaped; the method texts go
 * through {@link MiniMarkdown}, which escapes too.
 */
final class HtmlReport {
    private static final String CSS = """
            body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1b1b1b;\
            max-width:76rem;margin:2rem auto;padding:0 1rem}
            h1{font-size:1.7rem;margin-bottom:.5rem}h2{margin-top:2.5rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
            h3{margin:1.6rem 0 .4rem;font-size:1.1rem}
            table{border-collapse:collapse;margin:.4rem 0 1.2rem}
            th,td{border:1px solid #d4d4d4;padding:.25rem .6rem;text-align:left;vertical-align:top}
            thead th{background:#f2f2f2}
            .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
            .aside{color:#6a6a6a;font-size:.8em;margin-left:.3em}
            tr.petrel td:first-child{font-weight:600}
            tr.best-peer{background:#fff3df}
            tr.no-result td{color:#888;font-style:italic}
            table.facts th{background:none;font-weight:600;white-space:nowrap}
            code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
            pre{background:#f6f6f6;padding:.6rem .8rem;overflow:auto}
            .warning{background:#fdecea;border-left:4px solid #c62828;padding:.6rem .9rem;font-weight:600}
            figure{margin:1rem 0}img{max-width:100%;height:auto;border:1px solid #eee}
            details{margin:.5rem 0 1rem}summary{cursor:pointer}
            """;

    private HtmlReport() {}

    /** The HTML page of {@code blocks}. */
    static String render(List<Block> blocks) {
        String title = blocks.stream().filter(b -> b instanceof Outline.Heading h && h.level() == 1)
                .map(b -> ((Outline.Heading) b).text()).findFirst().orElse("Petrel benchmark report");
        StringBuilder out = new StringBuilder(16384);
        out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(Escape.html(title)).append("</title>\n<style>\n").append(CSS)
                .append("</style>\n</head>\n<body>\n");
        for (Block block : blocks) {
            switch (block) {
                case Outline.Heading h -> out.append("<h").append(h.level()).append('>').append(Escape.html(h.text()))
                        .append("</h").append(h.level()).append(">\n");
                case Outline.Prose p -> out.append(MiniMarkdown.html(p.markdown()));
                case Outline.Text t -> out.append("<p>").append(Escape.html(t.text())).append("</p>\n");
                case Outline.Warning w -> out.append("<p class=\"warning\">").append(Escape.html(w.text())).append("</p>\n");
                case Outline.Facts f -> facts(out, f.facts());
                case Outline.TableBlock t -> table(out, t.table());
                case Outline.Samples s -> samples(out, s.servers());
                case Outline.Images i -> i.charts().forEach(c -> out.append("<figure><img src=\"")
                        .append(Escape.html(c.file())).append("\" alt=\"").append(Escape.html(c.title()))
                        .append("\"></figure>\n"));
                case Outline.Items i -> {
                    out.append("<ul>\n");
                    i.items().forEach(item -> out.append("<li>").append(Escape.html(item)).append("</li>\n"));
                    out.append("</ul>\n");
                }
            }
        }
        return out.append("</body>\n</html>\n").toString();
    }

    private static void facts(StringBuilder out, List<Outline.Fact> facts) {
        out.append("<table class=\"facts\">\n");
        for (Outline.Fact f : facts) {
            String value = Escape.html(f.value());
            out.append("<tr><th>").append(Escape.html(f.key())).append("</th><td>")
                    .append(f.code() ? "<code>" + value + "</code>" : value).append("</td></tr>\n");
        }
        out.append("</table>\n");
    }

    private static void table(StringBuilder out, Table table) {
        out.append("<table>\n<thead><tr>");
        for (Table.Column c : table.columns()) {
            out.append(c.numeric() ? "<th class=\"num\">" : "<th>").append(Escape.html(c.heading())).append("</th>");
        }
        out.append("</tr></thead>\n<tbody>\n");
        for (Table.Row row : table.rows()) {
            String css = switch (row.style()) {
                case PETREL -> " class=\"petrel\"";
                case BEST_PEER -> " class=\"best-peer\"";
                case NO_RESULT -> " class=\"no-result\"";
                case PLAIN -> "";
            };
            out.append("<tr").append(css).append('>');
            for (int i = 0; i < row.cells().size(); i++) {
                Table.Cell cell = row.cells().get(i);
                out.append(table.columns().get(i).numeric() ? "<td class=\"num\">" : "<td>").append(Escape.html(cell.text()));
                if (cell.aside() != null) {
                    out.append("<span class=\"aside\">(").append(Escape.html(cell.aside())).append(")</span>");
                }
                out.append("</td>");
            }
            out.append("</tr>\n");
        }
        out.append("</tbody>\n</table>\n");
    }

    private static void samples(StringBuilder out, List<ServerInfo> servers) {
        out.append("<details>\n<summary>Each server's exact response to <code>GET /</code></summary>\n");
        for (ServerInfo s : servers) {
            out.append("<h4>").append(Escape.html(s.name()));
            if (s.responseSample() == null) {
                out.append(": not captured</h4>\n");
                continue;
            }
            out.append("<span class=\"aside\">").append(s.responseSample().getBytes(StandardCharsets.UTF_8).length)
                    .append(" bytes</span></h4>\n<pre>").append(Escape.html(s.responseSample().replace("\r\n", "\n")))
                    .append("</pre>\n");
        }
        out.append("</details>\n");
    }
}
