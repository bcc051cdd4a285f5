package io.inferbench.report;

/**
 * A Markdown document built line by line: the one helper behind {@code report.md} and {@code compare.md}.
 * Table cells are escaped, so a model path or an error message with a {@code |} cannot break a table.
 */
public final class Markdown {
    private final StringBuilder text = new StringBuilder();

    public Markdown line(String line) {
        text.append(line).append('\n');
        return this;
    }

    public Markdown blank() {
        return line("");
    }

    /** A table row from its cells, each escaped. */
    public Markdown row(String... cells) {
        StringBuilder row = new StringBuilder("|");
        for (String cell : cells) {
            row.append(cell == null || cell.isEmpty() ? " |" : " " + escape(cell) + " |");
        }
        return line(row.toString());
    }

    /** A table's header row and its alignment row; {@code right[i]} right-aligns column i (numbers). */
    public Markdown header(String[] names, boolean... right) {
        row(names);
        StringBuilder rule = new StringBuilder("|");
        for (int i = 0; i < names.length; i++) {
            rule.append(i < right.length && right[i] ? "---:|" : "---|");
        }
        return line(rule.toString());
    }

    /** A column of a table: its name, and whether it is right-aligned (numbers). */
    public record Column(String name, boolean right) {
    }

    public static Column left(String name) {
        return new Column(name, false);
    }

    public static Column right(String name) {
        return new Column(name, true);
    }

    /** A table's header row and its alignment row, column by column. */
    public Markdown header(Column... columns) {
        String[] names = new String[columns.length];
        boolean[] right = new boolean[columns.length];
        for (int i = 0; i < columns.length; i++) {
            names[i] = columns[i].name();
            right[i] = columns[i].right();
        }
        return header(names, right);
    }

    public static String escape(String cell) {
        return cell == null ? "" : cell.replace("|", "\\|").replace("\n", " ");
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
