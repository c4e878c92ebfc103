package io.tributary.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QuickStartDirectoryTest {

    @Test
    void createsAMissingDirectoryAndMarksIt(@TempDir Path work) throws Exception {
        QuickStartDirectory dir = QuickStartDirectory.prepare(work.resolve("tributary-data"));

        assertThat(dir.root()).isDirectory();
        assertThat(dir.root().resolve(QuickStartDirectory.MARKER)).exists();
        assertThat(dir.warehouse()).isEqualTo(dir.root().resolve("warehouse"));
    }

    @Test
    void emptiesItsOwnDirectoryFromAnEarlierRun(@TempDir Path work) throws Exception {
        Path data = work.resolve("tributary-data");
        QuickStartDirectory.prepare(data);
        Files.createDirectories(data.resolve("warehouse/page-views"));
        Files.writeString(data.resolve("warehouse/page-views/old.parquet"), "old");

        QuickStartDirectory.prepare(data);

        assertThat(data.resolve("warehouse")).doesNotExist();
        assertThat(data.resolve(QuickStartDirectory.MARKER)).exists();
    }

    @Test
    void refusesADirectoryItDidNotMakeAndDeletesNothing(@TempDir Path work) throws Exception {
        Path data = work.resolve("precious");
        Files.createDirectories(data);
        Files.writeString(data.resolve("thesis.tex"), "years of work");

        assertThatThrownBy(() -> QuickStartDirectory.prepare(data))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("was not made by the quick start")
            .hasMessageContaining("nothing was deleted");
        assertThat(data.resolve("thesis.tex")).hasContent("years of work");
    }

    @Test
    void refusesAFile(@TempDir Path work) throws Exception {
        Path file = Files.writeString(work.resolve("tributary-data"), "not a directory");

        assertThatThrownBy(() -> QuickStartDirectory.prepare(file)).hasMessageContaining("is a file");
        assertThat(file).hasContent("not a directory");
    }
}
