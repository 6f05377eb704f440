package dev.petrel.bench.report;

import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites the figure blocks of a Markdown document: everything between
 * {@code <!-- figures:begin NAME -->} and {@code <!-- figures:end -->}, each on a line of its own,
 * is replaced by the table {@code NAME} names, and the markers stay, so the next rewrite finds them
 * again. HTML comments are invisible on GitHub and in CommonMark. Text outside the blocks is kept
 * byte for byte.
 */
final class FiguresBlock {
    static final String BEGIN = "<!-- figures:begin ";
    static final String END = "<!-- figures:end -->";
    private static final Pattern BEGIN_LINE = Pattern.compile("^<!-- figures:begin ([A-Za-z0-9_.-]+) -->$");

    private FiguresBlock() {}

    /**
     * {@code document} with each block's content replaced by {@code tables.apply(name)}, one line
     * per element.
     *
     * @throws IllegalArgumentException for a begin marker without its end, an end without a begin,
     *     a malformed begin marker, or a document without any block (a README whose markers were
     *     lost must not pass as up to date)
     */
    static String rewrite(String document, Function<String, List<String>> tables) {
        List<String> lines = document.lines().toList();
        StringBuilder out = new StringBuilder(document.length());
        int blocks = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.strip().equals(END)) throw new IllegalArgumentException("line " + (i + 1) + ": an end marker without a begin");
            out.append(line).append('\n');
            if (!line.startsWith(BEGIN)) continue;
            Matcher begin = BEGIN_LINE.matcher(line.strip());
            if (!begin.matches()) {
                throw new IllegalArgumentException("line " + (i + 1) + ": write the marker as " + BEGIN + "NAME -->");
            }
            int end = i + 1;
            while (end < lines.size() && !lines.get(end).strip().equals(END)) {
                if (lines.get(end).startsWith(BEGIN)) break;
                end++;
            }
            if (end >= lines.size() || !lines.get(end).strip().equals(END)) {
                throw new IllegalArgumentException("line " + (i + 1) + ": " + begin.group(1) + " has no " + END + " after it");
            }
            for (String row : tables.apply(begin.group(1))) out.append(row).append('\n');
            out.append(lines.get(end)).append('\n');
            i = end;
            blocks++;
        }
        if (blocks == 0) throw new IllegalArgumentException("no " + BEGIN + "NAME --> block");
        // the document's own ending: no line break added where it had none
        if (!document.endsWith("\n")) out.setLength(out.length() - 1);
        return out.toString();
    }
}
