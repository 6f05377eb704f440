package dev.petrel.server.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The fenced code blocks of the project's pages (README.md and docs/**.md), read as
 * {@code scripts/readme-check.sh} reads them: a block opens with a line of three backticks and its
 * language, and closes with a line of three backticks; the line right before may be a runnable
 * mark, {@code <!-- runnable -->} or {@code <!-- runnable: MODE -->}.
 */
final class MarkdownBlocks {
    private static final Pattern FENCE = Pattern.compile("^( *)```(\\S*)\\s*$");
    private static final Pattern CLOSE = Pattern.compile("^\\s*```\\s*$");
    /** Anything that looks like a mark, so that a misspelt one is found rather than ignored. */
    private static final Pattern MARK = Pattern.compile("^\\s*<!--\\s*runnable\\b(.*?)-->\\s*$");

    /** A block: where its fence opens (1-based), its language, the mark right before it (null: none), its lines. */
    record Block(Path page, int line, String language, String mark, List<String> body) {
        String text() {
            return String.join("\n", body) + "\n";
        }

        @Override
        public String toString() {
            return page + ":" + line;
        }
    }

    /** A mark that stands anywhere else than right before a fence. */
    record StrayMark(Path page, int line, String text) {}

    private final List<Block> blocks = new ArrayList<>();
    private final List<StrayMark> strayMarks = new ArrayList<>();

    private MarkdownBlocks() {}

    /** The pages the check runs: README.md and every Markdown file under docs/, from the repository root. */
    static MarkdownBlocks ofProjectPages(Path root) {
        MarkdownBlocks all = new MarkdownBlocks();
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Path page : pages) all.read(root.relativize(page), readLines(page));
        return all;
    }

    private static List<String> readLines(Path page) {
        try {
            return Files.readAllLines(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void read(Path page, List<String> lines) {
        String pendingMark = null;
        int pendingLine = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher mark = MARK.matcher(line);
            Matcher fence = FENCE.matcher(line);
            if (mark.matches()) {
                if (pendingMark != null) strayMarks.add(new StrayMark(page, pendingLine, lines.get(pendingLine - 1)));
                pendingMark = mark.group(1).strip();
                pendingLine = i + 1;
            } else if (fence.matches()) {
                String markHere = pendingMark != null && pendingLine == i ? pendingMark : null;
                if (pendingMark != null && markHere == null) strayMarks.add(new StrayMark(page, pendingLine, lines.get(pendingLine - 1)));
                pendingMark = null;
                int indent = fence.group(1).length();
                List<String> body = new ArrayList<>();
                int open = i + 1;
                for (i++; i < lines.size() && !CLOSE.matcher(lines.get(i)).matches(); i++) {
                    String bodyLine = lines.get(i);
                    int strip = 0;
                    while (strip < indent && strip < bodyLine.length() && bodyLine.charAt(strip) == ' ') strip++;
                    body.add(bodyLine.substring(strip));
                }
                blocks.add(new Block(page, open, fence.group(2), markHere, List.copyOf(body)));
            } else if (pendingMark != null) {
                strayMarks.add(new StrayMark(page, pendingLine, lines.get(pendingLine - 1)));
                pendingMark = null;
            }
        }
        if (pendingMark != null) strayMarks.add(new StrayMark(page, pendingLine, lines.get(pendingLine - 1)));
    }

    List<Block> blocks() {
        return blocks;
    }

    List<StrayMark> strayMarks() {
        return strayMarks;
    }
}
