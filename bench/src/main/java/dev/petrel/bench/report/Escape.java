package dev.petrel.bench.report;

/**
 * Escaping for each output language. Every piece of run-supplied text (server descriptions,
 * problems, tool versions) goes through one of these before it is written, because the run
 * cannot be trusted to contain only harmless characters.
 */
final class Escape {
    private Escape() {}

    /** Text for HTML content and attribute values. */
    static String html(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** Text for XML (SVG) content and attribute values; the same rules as HTML suffice. */
    static String xml(String s) {
        return html(s);
    }

    /**
     * Plain text inside Markdown prose: characters that would start emphasis, code or raw HTML are
     * escaped. Underscores inside words are left alone, as GitHub does not treat them as emphasis
     * and {@code tomcat_nio} reads better than {@code tomcat\_nio}.
     */
    static String markdown(String s) {
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\', '`', '*' -> out.append('\\').append(c);
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '_' -> {
                    boolean inWord = i > 0 && i < s.length() - 1
                            && Character.isLetterOrDigit(s.charAt(i - 1)) && Character.isLetterOrDigit(s.charAt(i + 1));
                    out.append(inWord ? "_" : "\\_");
                }
                case '\r', '\n' -> out.append(' ');
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** Plain text inside a Markdown table cell: also the column separator. */
    static String markdownCell(String s) {
        return markdown(s).replace("|", "\\|");
    }

    /**
     * Inline code in Markdown: a backtick fence longer than any run of backticks inside, as
     * CommonMark specifies; padded with spaces when the text starts or ends with a backtick.
     */
    static String markdownCode(String s) {
        String fence = "`".repeat(longestRun(s, '`') + 1);
        String flat = s.replace("\r", " ").replace("\n", " ");
        boolean pad = flat.startsWith("`") || flat.endsWith("`");
        return fence + (pad ? " " : "") + flat + (pad ? " " : "") + fence;
    }

    /** A fence for a Markdown code block holding {@code s}: longer than any backtick run inside. */
    static String markdownFence(String s) {
        return "`".repeat(Math.max(3, longestRun(s, '`') + 1));
    }

    /** A CSV field per RFC 4180: quoted when it holds a comma, quote, CR or LF; quotes doubled. */
    static String csv(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\r') < 0 && s.indexOf('\n') < 0) return s;
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private static int longestRun(String s, char c) {
        int longest = 0, run = 0;
        for (int i = 0; i < s.length(); i++) {
            run = s.charAt(i) == c ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        return longest;
    }
}
