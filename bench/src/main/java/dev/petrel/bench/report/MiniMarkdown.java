package dev.petrel.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Just enough Markdown to HTML for the method texts scenarios carry: paragraphs, bullet and
 * numbered lists, fenced code, headings, and inline code, bold, italics and links. Everything is
 * escaped first, so no text can inject markup; links are kept only for http(s), mailto and
 * relative targets.
 */
final class MiniMarkdown {
    private static final Pattern CODE = Pattern.compile("(`+)(.+?)\\1");
    private static final Pattern ESCAPED = Pattern.compile("\\\\([!-/:-@\\[-`{-~])");
    /** A backslash before a character that HTML escaping already turned into an entity. */
    private static final Pattern ESCAPED_ENTITY = Pattern.compile("\\\\(&(?:lt|gt|amp|quot|#39);)");
    /** {@code [text](target)}; the target may hold one level of balanced parentheses, as URLs do. */
    private static final Pattern LINK = Pattern.compile("\\[([^\\]]+)\\]\\(((?:[^()\\s]|\\([^()\\s]*\\))+)\\)");
    private static final Pattern BOLD = Pattern.compile("\\*\\*(.+?)\\*\\*");
    private static final Pattern EM = Pattern.compile("(?<![\\w*])[*_](?=\\S)(.+?)(?<=\\S)[*_](?![\\w*])");
    private static final Pattern BULLET = Pattern.compile("\\s*[-*+]\\s+(.*)");
    private static final Pattern NUMBERED = Pattern.compile("\\s*\\d+[.)]\\s+(.*)");
    private static final Pattern HEADING = Pattern.compile("(#{1,6})\\s+(.*?)\\s*#*\\s*");

    private MiniMarkdown() {}

    /** The HTML of {@code markdown}'s blocks. */
    static String html(String markdown) {
        StringBuilder out = new StringBuilder();
        List<String> paragraph = new ArrayList<>();
        String list = null;
        String[] lines = markdown.replace("\r\n", "\n").split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            Matcher bullet = BULLET.matcher(line), numbered = NUMBERED.matcher(line), heading = HEADING.matcher(line);
            String kind = bullet.matches() ? "ul" : numbered.matches() ? "ol" : null;
            if (line.strip().startsWith("```")) {
                list = flush(out, paragraph, list, null);
                String fence = line.strip().replaceAll("[^`].*", "");
                StringBuilder code = new StringBuilder();
                while (++i < lines.length && !lines[i].strip().startsWith(fence)) code.append(lines[i]).append('\n');
                out.append("<pre><code>").append(Escape.html(code.toString())).append("</code></pre>\n");
            } else if (kind != null) {
                list = flush(out, paragraph, list, kind);
                out.append("<li>").append(inline((kind.equals("ul") ? bullet : numbered).group(1))).append("</li>\n");
            } else if (heading.matches()) {
                list = flush(out, paragraph, list, null);
                // the method sits under an h2; its own headings are subordinate
                int level = Math.min(6, heading.group(1).length() + 3);
                out.append("<h").append(level).append('>').append(inline(heading.group(2))).append("</h").append(level)
                        .append(">\n");
            } else if (line.isBlank()) {
                list = flush(out, paragraph, list, null);
            } else {
                if (list != null) list = flush(out, paragraph, list, null);
                paragraph.add(line.strip());
            }
        }
        flush(out, paragraph, list, null);
        return out.toString();
    }

    /** Inline Markdown of one line of text: code spans are literal, the rest is formatted. */
    static String inline(String text) {
        StringBuilder out = new StringBuilder();
        Matcher code = CODE.matcher(text);
        int last = 0;
        while (code.find()) {
            out.append(format(text.substring(last, code.start())));
            out.append("<code>").append(Escape.html(code.group(2).strip())).append("</code>");
            last = code.end();
        }
        return out.append(format(text.substring(last))).toString();
    }

    private static String format(String text) {
        String s = Escape.html(text);
        // a backslash-escaped character becomes an entity, which no later pattern matches
        s = ESCAPED_ENTITY.matcher(s).replaceAll("$1");
        s = ESCAPED.matcher(s).replaceAll(m -> "&#" + (int) m.group(1).charAt(0) + ";");
        s = LINK.matcher(s).replaceAll(m -> safe(m.group(2))
                ? Matcher.quoteReplacement("<a href=\"" + m.group(2) + "\">" + m.group(1) + "</a>")
                : Matcher.quoteReplacement(m.group(1)));
        s = BOLD.matcher(s).replaceAll("<strong>$1</strong>");
        return EM.matcher(s).replaceAll("<em>$1</em>");
    }

    /** Only targets that cannot run script: relative ones, http(s) and mailto. */
    private static boolean safe(String url) {
        String u = url.toLowerCase(java.util.Locale.ROOT);
        int colon = u.indexOf(':');
        int slash = u.indexOf('/');
        boolean relative = colon < 0 || (slash >= 0 && slash < colon);
        return relative || u.startsWith("http:") || u.startsWith("https:") || u.startsWith("mailto:");
    }

    private static String flush(StringBuilder out, List<String> paragraph, String list, String next) {
        if (!paragraph.isEmpty()) {
            out.append("<p>").append(inline(String.join(" ", paragraph))).append("</p>\n");
            paragraph.clear();
        }
        if (list != null && !list.equals(next)) out.append("</").append(list).append(">\n");
        if (next != null && !next.equals(list)) out.append('<').append(next).append(">\n");
        return next;
    }
}
