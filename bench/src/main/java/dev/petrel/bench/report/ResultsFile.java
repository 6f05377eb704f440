package dev.petrel.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The tables of a published report ({@code bench/RESULTS.md}, a {@code report.md}) that other
 * documents quote: its headline, and each scenario's overview. Found by what the report writer puts
 * before them ({@link Headline#HEADING}; a scenario's "Data: [NAME.csv]" line), so that a README
 * can take its figures from the results file instead of having them typed in.
 */
final class ResultsFile {
    /** What a cell says when it holds no figure, in this lab's reports and in earlier ones. */
    private static final Set<String> NO_FIGURE = Set.of(Tables.NO_RESULT, Tables.NOT_APPLICABLE, "not applicable", Format.NONE);

    private final List<String> lines;

    ResultsFile(String markdown) {
        this.lines = markdown.lines().toList();
    }

    /**
     * The table named {@code name}: {@code headline} for the headline table, or a scenario's name
     * (as on the command line, e.g. {@code connectors}) for the first table of its section.
     *
     * @throws IllegalArgumentException when the file has no such table
     */
    List<String> table(String name) {
        return name.equals("headline") ? headline() : overview(name);
    }

    /** The headline table. */
    List<String> headline() {
        int heading = lines.indexOf("## " + Headline.HEADING);
        if (heading < 0) {
            throw new IllegalArgumentException("no '## " + Headline.HEADING + "' section (a report from before the "
                    + "headline was added: publish a new run with --publish)");
        }
        return tableAfter(heading, "the headline");
    }

    /**
     * The first table of scenario {@code scenario}'s section, its overview when it has several
     * variants: the median of its primary metric per server and variant. Rows without a single
     * figure (a server that failed or could not run there) are left out: a quoted table shows
     * figures, and the results file says why a server has none.
     */
    List<String> overview(String scenario) {
        String data = "Data: [" + scenario + ".csv]";
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(data)) {
                List<String> table = tableAfter(i, "scenario '" + scenario + "'");
                List<String> kept = new ArrayList<>(table.subList(0, 2));
                table.subList(2, table.size()).stream().filter(ResultsFile::hasFigure).forEach(kept::add);
                return kept;
            }
        }
        throw new IllegalArgumentException("no section of scenario '" + scenario + "' (no line starting '" + data + "')");
    }

    /** The lines of the first table after line {@code from}. */
    private List<String> tableAfter(int from, String what) {
        int start = from + 1;
        while (start < lines.size() && !lines.get(start).startsWith("|")) {
            if (lines.get(start).startsWith("## ")) break; // the next section: this one has no table
            start++;
        }
        List<String> table = new ArrayList<>();
        for (int i = start; i < lines.size() && lines.get(i).startsWith("|"); i++) table.add(lines.get(i));
        if (table.size() < 2) throw new IllegalArgumentException(what + " has no table");
        return table;
    }

    /** Whether a row has a value cell (any cell after the first) that is a figure. */
    private static boolean hasFigure(String row) {
        String[] cells = row.substring(1, row.length() - (row.endsWith("|") ? 1 : 0)).split("(?<!\\\\)\\|");
        for (int i = 1; i < cells.length; i++) {
            if (!NO_FIGURE.contains(cells[i].strip())) return true;
        }
        return false;
    }
}
