package io.tributary.benchmarks.harness;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MarkdownSectionTest {
    private final MarkdownSection section = new MarkdownSection("<!-- b -->", "<!-- e -->");

    @Test
    void replacesOnlyTheTextBetweenTheMarkers() {
        String doc = "# Title\n\nHand-written intro.\n\n<!-- b -->\nold numbers\n<!-- e -->\n\n## Notes\nkept\n";
        assertThat(section.rewrite(doc, "new numbers\n"))
                .isEqualTo("# Title\n\nHand-written intro.\n\n<!-- b -->\nnew numbers\n<!-- e -->\n\n## Notes\nkept\n");
    }

    @Test
    void rewritingTwiceGivesTheSameDocumentAsRewritingOnce() {
        String doc = "intro\n<!-- b -->\nx\n<!-- e -->\noutro\n";
        String once = section.rewrite(doc, "body");
        assertThat(section.rewrite(once, "body")).isEqualTo(once);
    }

    @Test
    void appendsTheSectionToADocumentWithoutMarkers() {
        assertThat(section.rewrite("# Benchmarks\n", "body"))
                .isEqualTo("# Benchmarks\n\n<!-- b -->\nbody\n<!-- e -->\n");
        assertThat(section.rewrite("", "body")).isEqualTo("<!-- b -->\nbody\n<!-- e -->\n");
    }

    @Test
    void refusesUnbalancedOrReversedMarkersInsteadOfTruncatingTheDocument() {
        assertThatThrownBy(() -> section.rewrite("<!-- b -->\nno end\n", "x")).hasMessageContaining("fix the markers");
        assertThatThrownBy(() -> section.rewrite("<!-- e -->\n<!-- b -->\n", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> section.rewrite("<!-- b --><!-- e --><!-- b --><!-- e -->", "x"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
