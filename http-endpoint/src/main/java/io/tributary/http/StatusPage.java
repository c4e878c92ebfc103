package io.tributary.http;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A status page for people: a title, then sections of text and tables, as one small HTML document with its own
 * style, no script and no outside resource. The browser reloads it every {@code refreshSeconds} ({@code <meta
 * http-equiv="refresh">}). Every text is escaped. Tables carry an {@code id}, rows a {@code class} of {@code warn}
 * when they need attention, so the page reads well and is easy to check.
 */
public final class StatusPage {
    private static final String STYLE = "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}"
            + "h1{font-size:1.4em;margin:0 0 .2em}h2{font-size:1.1em;margin:1.4em 0 .4em}"
            + "table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.2em .6em;text-align:left}"
            + "th{background:#f2f2f2}tr.warn td{background:#fde2e2}p.note{color:#666;margin:.2em 0}"
            + "td.num{text-align:right;font-variant-numeric:tabular-nums}";

    /** One table row; {@code warn} marks it as needing attention. */
    public record Row(List<String> cells, boolean warn) {
        public static Row of(String... cells) {
            return new Row(List.of(cells), false);
        }
    }

    private final String title;
    private final int refreshSeconds;
    private final List<String> parts = new ArrayList<>();

    public StatusPage(String title, int refreshSeconds) {
        this.title = title;
        this.refreshSeconds = refreshSeconds;
    }

    public StatusPage section(String heading) {
        parts.add("<h2>" + escape(heading) + "</h2>");
        return this;
    }

    public StatusPage note(String text) {
        parts.add("<p class=\"note\">" + escape(text) + "</p>");
        return this;
    }

    /**
     * A table; cells of the columns named in {@code numeric} are right-aligned.
     *
     * @param id the table's {@code id} attribute
     */
    public StatusPage table(String id, List<String> headers, List<Row> rows, List<String> numeric) {
        StringBuilder html = new StringBuilder("<table id=\"").append(escape(id)).append("\"><thead><tr>");
        headers.forEach(header -> html.append("<th>").append(escape(header)).append("</th>"));
        html.append("</tr></thead><tbody>");
        for (Row row : rows) {
            html.append(row.warn() ? "<tr class=\"warn\">" : "<tr>");
            for (int i = 0; i < row.cells().size(); i++) {
                boolean number = i < headers.size() && numeric.contains(headers.get(i));
                html.append(number ? "<td class=\"num\">" : "<td>").append(escape(row.cells().get(i))).append("</td>");
            }
            html.append("</tr>");
        }
        parts.add(html.append("</tbody></table>").toString());
        return this;
    }

    /** The whole document, stamped with {@code now}. */
    public String render(Instant now) {
        StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta http-equiv=\"refresh\" content=\"").append(refreshSeconds).append("\">")
                .append("<title>").append(escape(title)).append("</title><style>").append(STYLE).append("</style></head><body>")
                .append("<h1>").append(escape(title)).append("</h1>")
                .append("<p class=\"note\">as of ").append(escape(now.toString())).append(", reloads every ")
                .append(refreshSeconds).append(" s</p>");
        parts.forEach(html::append);
        return html.append("</body></html>\n").toString();
    }

    static String escape(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '&' -> escaped.append("&amp;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
