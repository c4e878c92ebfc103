package io.tributary.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Checks that a page holds the current text of a generated part, naming the differing lines. */
final class GeneratedPage {
    static final Path OPERATIONS_GUIDE = Path.of("..", "docs", "operations.md");

    private GeneratedPage() {
    }

    static void assertCurrent(Path page, GeneratedSection section) throws IOException {
        String doc = Files.readString(page, StandardCharsets.UTF_8);
        List<String> documented = doc.lines().toList();
        List<String> generated = section.replaceIn(doc).lines().toList();

        // Name the differing rows, not the whole page.
        String stale = page + "'s " + section.title().toLowerCase() + " is stale: run 'examples/run " + section.command()
            + " docs/operations.md'";
        assertThat(generated.stream().filter(line -> !documented.contains(line)))
            .as(stale + "; lines the page lacks").isEmpty();
        assertThat(documented.stream().filter(line -> !generated.contains(line)))
            .as(stale + "; lines the code no longer has").isEmpty();
        assertThat(generated.equals(documented)).as(stale + "; the order differs").isTrue();
    }
}
