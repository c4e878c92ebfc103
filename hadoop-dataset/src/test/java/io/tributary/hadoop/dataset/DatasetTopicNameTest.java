package io.tributary.hadoop.dataset;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class DatasetTopicNameTest {
    @Test
    void theLongestTopicAllowedMakesFileNamesOfAtMost255Bytes() {
        String longest = "t".repeat(DatasetTopicName.MAX_BYTES);
        assertThat(DatasetTopicName.problem(longest)).isEmpty();
        String widest = DataFileName.of(longest, Integer.MAX_VALUE, Long.MAX_VALUE - 1, Long.MAX_VALUE).fileName();
        assertThat(widest.getBytes(StandardCharsets.UTF_8)).hasSize(255);
        assertThat(DatasetTopicName.problem(longest + "t")).get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
            .contains("is 197 bytes long", "255-byte limit", "at most 196 bytes");
    }

    @Test
    void namesThatHiveAndSparkHideAreRefusedSayingWhatToDo() {
        assertThat(DatasetTopicName.problem("_private")).get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
            .contains("starts with '_'", "hidden", "Copy it to a topic");
        assertThat(DatasetTopicName.problem(".hidden")).get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
            .contains("starts with '.'");
        assertThat(DatasetTopicName.problem("_tributary")).get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
            .contains("the dataset's own metadata folder");
        assertThat(DatasetTopicName.problem("orders.v2_eu-1")).isEmpty();
    }
}
