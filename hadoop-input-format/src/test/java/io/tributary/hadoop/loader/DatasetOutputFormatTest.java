package io.tributary.hadoop.loader;

import io.tributary.hadoop.input.InputConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DatasetOutputFormatTest {
    @TempDir
    Path dir;

    @Test
    void aValueSchemaParquetCannotHoldFailsTheSubmissionNotTheTasks() {
        Configuration conf = conf();
        conf.set(LoaderConfig.VALUE_SCHEMA, """
            {"type": "record", "name": "Node", "fields": [{"name": "next", "type": ["null", "Node"]}]}"""); // Avro allows recursion, Parquet does not

        assertThatThrownBy(() -> new DatasetOutputFormat().checkOutputSpecs(new JobContextImpl(conf, new JobID("t", 1))))
            .hasMessageContaining("Recursive");
    }

    @Test
    void theRawColumnsPass() {
        assertThatCode(() -> new DatasetOutputFormat().checkOutputSpecs(new JobContextImpl(conf(), new JobID("t", 1)))).doesNotThrowAnyException();
    }

    private Configuration conf() {
        Configuration conf = new Configuration();
        conf.set(InputConfig.TOPIC, "t");
        conf.set(InputConfig.DATASET, dir.toUri().toString());
        return conf;
    }
}
