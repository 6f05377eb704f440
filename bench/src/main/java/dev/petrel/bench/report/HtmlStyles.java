package dev.petrel.bench.report;

import java.util.Map;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TableRow;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Node;
import org.commonmark.node.Paragraph;
import org.commonmark.node.StrongEmphasis;
import org.commonmark.node.Text;
import org.commonmark.renderer.html.AttributeProvider;

/**
 * The CSS classes {@link HtmlReport}'s stylesheet uses, given to the nodes CommonMark renders: what
 * the Markdown says in words (a right-aligned column, "(best peer)", "no result", a bold warning)
 * the page also shows in colour. Only classes are added; nothing is removed or rewritten.
 */
final class HtmlStyles implements AttributeProvider {

    @Override
    public void setAttributes(Node node, String tagName, Map<String, String> attributes) {
        String css = switch (node) {
            case TableCell cell when cell.getAlignment() == TableCell.Alignment.RIGHT -> "num";
            case TableRow row -> rowClass(row);
            case Paragraph p when p.getFirstChild() instanceof StrongEmphasis strong
                    && text(strong).startsWith("Warning:") -> "warning";
            default -> null;
        };
        if (css != null) attributes.put("class", css);
    }

    /** A row by its first two cells: the best peer's is marked in its name, a row without figures in its first value. */
    private static String rowClass(TableRow row) {
        Node first = row.getFirstChild();
        if (first == null) return null;
        if (text(first).endsWith("(" + Tables.BEST_PEER + ")")) return "best-peer";
        Node second = first.getNext();
        if (second != null) {
            String value = text(second);
            if (value.equals(Tables.NO_RESULT) || value.startsWith(Tables.NOT_APPLICABLE)) return "no-result";
        }
        return null;
    }

    /** The literal text under {@code node}, markup left out. */
    private static String text(Node node) {
        StringBuilder out = new StringBuilder();
        node.accept(new AbstractVisitor() {
            @Override
            public void visit(Text text) {
                out.append(text.getLiteral());
            }

            @Override
            public void visit(Code code) {
                out.append(code.getLiteral());
            }
        });
        return out.toString().strip();
    }
}
