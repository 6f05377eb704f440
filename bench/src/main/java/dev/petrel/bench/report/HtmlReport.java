package dev.petrel.bench.report;

import java.util.List;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.Heading;
import org.commonmark.node.Node;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;
import org.commonmark.renderer.text.TextContentRenderer;

/**
 * {@code index.html}: {@code report.md} rendered by CommonMark (with GitHub's tables) into one
 * self-contained page with inline CSS, no script, and the charts embedded with {@code <img>} from
 * the same directory. Rendering the Markdown, rather than the outline a second time, means the page
 * cannot say anything the Markdown does not.
 *
 * <p>The Markdown's run-supplied text is already escaped ({@link Escape#markdown}); the only raw
 * HTML in it is the lab's own {@code <details>} fold. Link targets that could run script are
 * dropped by the renderer's URL sanitizer.
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
            tr.best-peer{background:#fff3df}
            tr.no-result td{color:#888;font-style:italic}
            code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
            pre{background:#f6f6f6;padding:.6rem .8rem;overflow:auto}
            .warning{background:#fdecea;border-left:4px solid #c62828;padding:.6rem .9rem}
            img{max-width:100%;height:auto;border:1px solid #eee}
            details{margin:.5rem 0 1rem}summary{cursor:pointer}
            """;
    private static final List<Extension> EXTENSIONS = List.of(TablesExtension.create());
    private static final Parser PARSER = Parser.builder().extensions(EXTENSIONS).build();
    private static final HtmlRenderer RENDERER = HtmlRenderer.builder().extensions(EXTENSIONS)
            .sanitizeUrls(true)
            .attributeProviderFactory(context -> new HtmlStyles())
            .build();
    private static final TextContentRenderer TEXT = TextContentRenderer.builder().build();

    private HtmlReport() {}

    /** The HTML page of the Markdown report {@code markdown} ({@link MarkdownReport}'s output). */
    static String render(String markdown) {
        Node document = PARSER.parse(markdown);
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                + "<title>" + Escape.html(title(document)) + "</title>\n<style>\n" + CSS + "</style>\n</head>\n<body>\n"
                + RENDERER.render(document)
                + "</body>\n</html>\n";
    }

    /** The text of the first level-1 heading: the report's title. */
    private static String title(Node document) {
        for (Node n = document.getFirstChild(); n != null; n = n.getNext()) {
            if (n instanceof Heading h && h.getLevel() == 1) return TEXT.render(h).strip();
        }
        return "Petrel benchmark report";
    }
}
