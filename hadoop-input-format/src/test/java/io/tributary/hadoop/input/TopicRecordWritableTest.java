package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.RecordConverter;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class TopicRecordWritableTest {
    @Test
    void roundTripKeepsNullsAndHeaders() throws IOException {
        RecordHeaders headers = new RecordHeaders();
        headers.add("trace", "abc".getBytes(StandardCharsets.UTF_8));
        headers.add("empty", null);
        TopicRecordWritable written = new TopicRecordWritable(new ConsumerRecord<>("t", 4, 1L << 35, -1L,
            TimestampType.NO_TIMESTAMP_TYPE, -1, 3, null, "v".getBytes(StandardCharsets.UTF_8), headers, Optional.empty()));
        TopicRecordWritable back = TopicSplitTest.roundTrip(written, new TopicRecordWritable());
        assertThat(back).isEqualTo(written);
        assertThat(back.key()).isNull();
        assertThat(back.timestamp()).isEqualTo(-1L);
        assertThat(back.headers().lastHeader("empty").value()).isNull();
    }

    @Test
    void becomesTheDatasetRow() {
        TopicRecordWritable record = new TopicRecordWritable(new ConsumerRecord<>("t", 1, 9L, 5L,
            TimestampType.CREATE_TIME, 1, 1, "k".getBytes(StandardCharsets.UTF_8), null, new RecordHeaders(), Optional.empty()));
        GenericRecord row = record.toAvro(RecordConverter.raw());
        assertThat(row.get("offset")).isEqualTo(9L);
        assertThat(row.get("key")).isEqualTo("k".getBytes(StandardCharsets.UTF_8));
        assertThat(row.get("value")).isNull();
    }
}
