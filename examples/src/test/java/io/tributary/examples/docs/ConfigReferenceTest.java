package io.tributary.examples.docs;

import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigReferenceTest {
    @Test
    void theOperationsGuideHoldsTheCurrentReference() throws Exception {
        GeneratedPage.assertCurrent(GeneratedPage.OPERATIONS_GUIDE, ConfigReference.SECTION);
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
