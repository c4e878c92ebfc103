package io.tributary.benchmarks.harness;

import java.util.ArrayList;
import java.util.List;

/** Renders a header and rows of cells as an aligned plain-text table or as a Markdown table. */
public final class Tables {
    private Tables() {
    }

    /** Columns padded to their widest cell; the first column left-aligned, the others right-aligned (numbers). */
    public static String text(List<String> header, List<List<String>> rows) {
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        int[] widths = new int[header.size()];
        for (List<String> row : all) {
            for (int column = 0; column < row.size(); column++) {
                widths[column] = Math.max(widths[column], row.get(column).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : all) {
            StringBuilder line = new StringBuilder();
            for (int column = 0; column < row.size(); column++) {
                String cell = row.get(column);
                String padding = " ".repeat(widths[column] - cell.length());
                line.append(column == 0 ? cell + padding : "  " + padding + cell);
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    /** A GitHub-flavoured Markdown table, numeric columns (all but the first) right-aligned. */
    public static String markdown(List<String> header, List<List<String>> rows) {
        StringBuilder out = new StringBuilder();
        out.append(markdownRow(header));
        List<String> rule = new ArrayList<>();
        for (int column = 0; column < header.size(); column++) {
            rule.add(column == 0 ? "---" : "---:");
        }
        out.append(markdownRow(rule));
        rows.forEach(row -> out.append(markdownRow(row)));
        return out.toString();
    }

    private static String markdownRow(List<String> cells) {
        List<String> escaped = cells.stream().map(cell -> cell.replace("|", "\\|")).toList();
        return "| " + String.join(" | ", escaped) + " |\n";
    }
}
