package io.tributary.hadoop.loader;

import io.tributary.hadoop.input.InputConfig;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoaderOptionsTest {
    @Test
    void mapsOptionsToJobSettings() {
        LoaderOptions options = LoaderOptions.parse(new String[] {
            "--bootstrap-server", "h:9092", "--topic", "t", "--output", "hdfs:///d", "--start", "earliest",
            "--on-missing", "skip", "--split-max-records", "500", "--value-schema", "v.avsc", "--value-format", "json"});
        Configuration conf = new Configuration(false);
        options.applyTo(conf);
        assertThat(conf.get(InputConfig.BOOTSTRAP_SERVERS)).isEqualTo("h:9092");
        assertThat(conf.get(InputConfig.DATASET)).isEqualTo("hdfs:///d");
        assertThat(conf.get(InputConfig.START)).isEqualTo("earliest");
        assertThat(conf.get(InputConfig.ON_MISSING)).isEqualTo("skip");
        assertThat(conf.getLong(InputConfig.SPLIT_MAX_RECORDS, 0)).isEqualTo(500);
        assertThat(conf.get(LoaderConfig.VALUE_FORMAT)).isEqualTo("json");
        assertThat(options.valueSchemaFile()).isEqualTo("v.avsc");
        assertThat(options.dryRun()).isFalse();
    }

    @Test
    void mapsTheMapBoundsAndTheDryRunFlag() {
        LoaderOptions options = LoaderOptions.parse(new String[] {
            "--dry-run", "--bootstrap-server", "h:9092", "--topic", "t", "--output", "d", "--min-maps", "4", "--max-maps", "16"});
        Configuration conf = new Configuration(false);
        options.applyTo(conf);
        assertThat(options.dryRun()).isTrue();
        assertThat(new InputConfig(conf).splitLimits().minMaps()).isEqualTo(4);
        assertThat(new InputConfig(conf).splitLimits().maxMaps()).isEqualTo(16);
    }

    @Test
    void rejectsBadUsageBeforeConnecting() {
        assertThatThrownBy(() -> LoaderOptions.parse(new String[] {"--topic", "t", "--output", "d"}))
            .hasMessage("missing --bootstrap-server");
        assertThatThrownBy(() -> LoaderOptions.parse(new String[] {"--bogus", "x"})).hasMessage("unknown option '--bogus'");
        assertThatThrownBy(() -> LoaderOptions.parse(new String[] {"--topic"})).hasMessage("--topic needs a value");
        String[] base = {"--bootstrap-server", "h:1", "--topic", "t", "--output", "d"};
        assertThatThrownBy(() -> LoaderOptions.parse(concat(base, "--start", "soon"))).hasMessageContaining("unknown start position");
        assertThatThrownBy(() -> LoaderOptions.parse(concat(base, "--codec", "rar"))).hasMessageContaining("unknown Parquet codec");
        assertThatThrownBy(() -> LoaderOptions.parse(concat(base, "--split-max-records", "many"))).hasMessageContaining("not a number");
        assertThatThrownBy(() -> LoaderOptions.parse(concat(base, "--min-maps", "8", "--max-maps", "4")))
            .hasMessageContaining("min.maps 8 is more than max.maps 4");
        assertThatThrownBy(() -> LoaderOptions.parse(concat(base, "--max-maps", "-1"))).hasMessageContaining("max.maps -1");
    }

    @Test
    void refusesTopicsThatCannotMakeADatasetFolderBeforeConnecting() {
        for (String topic : new String[] {"_private", ".hidden", "_tributary", "t".repeat(240)}) {
            String[] args = {"--bootstrap-server", "h:1", "--topic", topic, "--output", "d"};
            assertThatThrownBy(() -> LoaderOptions.parse(args)).as(topic).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("topic '" + topic + "'").hasMessageContaining("Copy it to a topic");
        }
    }

    private static String[] concat(String[] base, String... more) {
        String[] all = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }
}
