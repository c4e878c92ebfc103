package io.tributary.hadoop.input;

import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How a job names its record preparer: a factory class, given the job's configuration. */
class RecordPreparerConfigTest {
    private static final String TAG = "test.tag";

    @Test
    void withoutAFactoryNothingIsPrepared() {
        assertThat(new InputConfig(new Configuration(false)).recordPreparer()).isSameAs(RecordPreparer.NONE);
    }

    @Test
    void theFactoryMakesEachPreparerFromTheJobsConfiguration() throws Exception {
        Configuration conf = new Configuration(false);
        conf.set(InputConfig.RECORD_PREPARER, TaggingFactory.class.getName());
        conf.set(TAG, "job-7");
        RecordPreparer preparer = new InputConfig(conf).recordPreparer();
        assertThat(preparer.prepare(new ConsumerRecord<>("t", 2, 40L, null, null))).isEqualTo("job-7:t-2@40");
        assertThat(new InputConfig(conf).recordPreparer()).as("one per split").isNotSameAs(preparer);
    }

    @Test
    void anUnknownOrWrongClassIsAClearError() {
        Configuration conf = new Configuration(false);
        conf.set(InputConfig.RECORD_PREPARER, "no.such.Factory");
        assertThatThrownBy(() -> new InputConfig(conf).recordPreparer()).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(InputConfig.RECORD_PREPARER).hasMessageContaining("no.such.Factory");
        conf.set(InputConfig.RECORD_PREPARER, String.class.getName());
        assertThatThrownBy(() -> new InputConfig(conf).recordPreparer()).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("java.lang.String");
    }

    public static final class TaggingFactory implements RecordPreparer.Factory {
        @Override
        public RecordPreparer create(Configuration conf) {
            String tag = conf.get(TAG);
            return record -> tag + ":" + record.topic() + "-" + record.partition() + "@" + record.offset();
        }
    }
}
