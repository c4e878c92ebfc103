package io.tributary.hadoop.loader;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The loader's {@code tributary.*} job settings are checked against their declaration before anything runs. */
class LoaderSettingsTest {
    @TempDir
    java.nio.file.Path dir;

    @ParameterizedTest
    @CsvSource({"tributary.split.max.records, many", "tributary.consumer.isolation.level, committed",
        "tributary.staging.abandoned.after.ms, 120000"}) // under three default heartbeat intervals
    void aBadSettingIsOneClearLineAndExitCodeTwoBeforeAnythingConnects(String key, String value) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = ToolRunner.run(new Configuration(), new TopicLoader(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)),
            new String[] {"-D", key + "=" + value, "--bootstrap-server", "127.0.0.1:9", "--topic", "t",
                "--output", dir.resolve("lake").toString()});

        String printed = err.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(printed).isEqualTo(2);
        assertThat(printed.lines().findFirst()).hasValueSatisfying(line -> assertThat(line)
            .startsWith("tributary-loader: ").contains(key, value));
        assertThat(printed).doesNotContain("Exception", "\tat ");
        assertThat(dir.resolve("lake")).doesNotExist();
    }
}
