package io.tributary.examples.docs;

import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigReferenceTest {
    private static final Path OPERATIONS_GUIDE = Path.of("..", "docs", "operations.md");

    @Test
    void theOperationsGuideHoldsTheCurrentReference() throws Exception {
        String doc = Files.readString(OPERATIONS_GUIDE, StandardCharsets.UTF_8);
        List<String> documented = doc.lines().toList();
        List<String> generated = ConfigReference.withGeneratedSection(doc).lines().toList();

        // Name the differing rows, not the whole page.
        String stale = "docs/operations.md's config reference is stale: run 'examples/run config-reference docs/operations.md'";
        assertThat(generated.stream().filter(line -> !documented.contains(line)))
            .as(stale + "; lines the page lacks").isEmpty();
        assertThat(documented.stream().filter(line -> !generated.contains(line)))
            .as(stale + "; lines the code no longer has").isEmpty();
        assertThat(generated.equals(documented)).as(stale + "; the order differs").isTrue();
    }

    @Test
    void everyKeyOfEverySchemaHasARow() {
        String reference = ConfigReference.render();

        for (ConfigReference.Section section : ConfigReference.sections()) {
            assertThat(reference).contains("### " + section.heading());
            for (ConfigDef.ConfigKey key : section.definition().configKeys().values()) {
                assertThat(reference).contains("| `" + key.name + "` | " + key.type.toString().toLowerCase() + " |");
            }
        }
        assertThat(reference).contains("| `broker.id` |", "| `log.retention.hours` |", "| `retention.ms` |",
            "| `rotate.interval.ms` |", "| `bootstrap.servers` | list | *(required)* |",
            "| `tributary.topic` | string | *(required)* |", "| `tributary.split.max.records` | long | `1000000` |",
            "| `tributary.timezone` | string | `UTC` |");
    }

    @Test
    void onlyTheTextBetweenTheMarkersIsReplaced() {
        String doc = "# Ops\nbefore\n" + ConfigReference.BEGIN + "\nold table\n" + ConfigReference.END + "\nafter\n";

        String updated = ConfigReference.withGeneratedSection(doc);

        assertThat(updated).startsWith("# Ops\nbefore\n" + ConfigReference.BEGIN + "\n")
            .endsWith(ConfigReference.END + "\nafter\n")
            .doesNotContain("old table");
        assertThat(ConfigReference.withGeneratedSection(updated)).isEqualTo(updated);
    }

    @Test
    void missingMarkersAreAClearError() {
        assertThatThrownBy(() -> ConfigReference.withGeneratedSection("# no markers here"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(ConfigReference.BEGIN);
    }
}
