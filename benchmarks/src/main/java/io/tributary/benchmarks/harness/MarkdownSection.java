package io.tributary.benchmarks.harness;

/**
 * A generated section of a hand-written Markdown file, between a begin and an end marker (HTML
 * comments, invisible when rendered). Rewriting it leaves everything outside the markers as it was.
 */
public final class MarkdownSection {
    private final String beginMarker;
    private final String endMarker;

    public MarkdownSection(String beginMarker, String endMarker) {
        this.beginMarker = beginMarker;
        this.endMarker = endMarker;
    }

    /** The markers this harness uses in docs/benchmarks.md. */
    public static MarkdownSection harness() {
        return named("harness");
    }

    /** The section between {@code <!-- name:begin -->} and {@code <!-- name:end -->}. */
    public static MarkdownSection named(String name) {
        return new MarkdownSection("<!-- " + name + ":begin -->", "<!-- " + name + ":end -->");
    }

    /**
     * {@code document} with the text between the markers replaced by {@code body}; a document
     * without the markers gets the section appended at its end.
     *
     * @throws IllegalArgumentException if the markers are unbalanced, repeated or out of order,
     *     so that a hand-edited file is never silently truncated
     */
    public String rewrite(String document, String body) {
        int begin = document.indexOf(beginMarker);
        int end = document.indexOf(endMarker);
        if (begin < 0 && end < 0) {
            String separator = document.isEmpty() || document.endsWith("\n\n") ? ""
                    : document.endsWith("\n") ? "\n" : "\n\n";
            return document + separator + section(body) + "\n";
        }
        if (begin < 0 || end < 0 || end < begin
                || document.indexOf(beginMarker, begin + 1) >= 0 || document.indexOf(endMarker, end + 1) >= 0) {
            throw new IllegalArgumentException("expected exactly one " + beginMarker + " followed by one "
                    + endMarker + "; fix the markers by hand");
        }
        return document.substring(0, begin) + section(body) + document.substring(end + endMarker.length());
    }

    private String section(String body) {
        String trimmed = body.endsWith("\n") ? body : body + "\n";
        return beginMarker + "\n" + trimmed + endMarker;
    }
}
