package io.tributary.benchmarks.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;

/** Writes a run into docs/: the charts into docs/benchmarks/ and the generated section of docs/benchmarks.md. */
public final class DocsWriter {
    static final String MARKDOWN = "benchmarks.md";
    static final String CHART_DIR = "benchmarks";

    private DocsWriter() {
    }

    /** @return the Markdown file written */
    public static Path write(Path docsDir, RunResult result, MachineInfo machine, String command, Instant finished)
            throws IOException {
        Charts.write(result, docsDir.resolve(CHART_DIR));
        return writeSection(docsDir, MarkdownSection.harness(), MarkdownReport.render(result, machine, command, finished, CHART_DIR));
    }

    /** Rewrites one generated {@code section} of docs/benchmarks.md with {@code body}; @return the Markdown file written */
    public static Path writeSection(Path docsDir, MarkdownSection section, String body) throws IOException {
        Path markdown = docsDir.resolve(MARKDOWN);
        String document = Files.exists(markdown) ? Files.readString(markdown, StandardCharsets.UTF_8) : "# Benchmarks\n";
        String rewritten = section.rewrite(document, body);
        Path partial = markdown.resolveSibling(MARKDOWN + ".tmp");
        Files.writeString(partial, rewritten, StandardCharsets.UTF_8);
        Files.move(partial, markdown, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return markdown;
    }
}
