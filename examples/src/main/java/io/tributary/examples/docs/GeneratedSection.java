package io.tributary.examples.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * A part of a markdown page rendered from the code, between a BEGIN and an END marker line; everything else on the
 * page is hand-written. {@link #main} is the command line of every generator: rewrite the part, or with
 * {@code --check} exit 1 if it is stale.
 *
 * @param title   what the part is, in capitals (it names the markers)
 * @param command the {@code examples/run} command that regenerates it
 * @param render  the markdown between the markers
 */
record GeneratedSection(String title, String command, Supplier<String> render) {
    String begin() {
        return "<!-- BEGIN GENERATED " + title + " (examples/run " + command + " docs/operations.md) -->";
    }

    String end() {
        return "<!-- END GENERATED " + title + " -->";
    }

    /**
     * {@code document} with the text between the markers replaced by {@link #render}.
     *
     * @throws IllegalArgumentException if the markers are missing or out of order
     */
    String replaceIn(String document) {
        int begin = document.indexOf(begin());
        int end = document.indexOf(end());
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("the document needs the lines " + begin() + " and " + end()
                + ", in that order, around the generated part");
        }
        return document.substring(0, begin + begin().length()) + "\n" + render.get() + document.substring(end);
    }

    /** {@code <page.md> [--check]}: rewrites the part, or checks that it is current (exit 1 if not). */
    void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2 || (args.length == 2 && !args[1].equals("--check"))) {
            System.err.println("usage: " + command + " <docs/operations.md> [--check]");
            System.exit(2);
        }
        Path doc = Path.of(args[0]);
        String current = Files.readString(doc, StandardCharsets.UTF_8);
        String updated = replaceIn(current);
        String what = title.toLowerCase();
        if (args.length == 2) {
            boolean fresh = updated.equals(current);
            System.out.println(fresh ? doc + ": the " + what + " is up to date"
                : doc + ": the " + what + " is stale; run examples/run " + command + " " + doc);
            System.exit(fresh ? 0 : 1);
        }
        Files.writeString(doc, updated, StandardCharsets.UTF_8);
        System.out.println("wrote the " + what + " into " + doc);
    }
}
