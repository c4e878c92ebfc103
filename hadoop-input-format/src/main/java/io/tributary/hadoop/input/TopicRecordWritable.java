package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.RecordConverter;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * A Kafka record as a Hadoop {@link Writable}: topic, partition, offset, timestamp, key, value
 * and headers (null key, value and header values survive the round trip). Mutable and reused by
 * record readers, as Hadoop values are; copy what you keep. A record reader also hands over what
 * the job's {@link RecordPreparer} made of the record ({@link #prepared()}); that is not part of
 * the record's value: it is neither written nor compared.
 */
public final class TopicRecordWritable implements Writable {
    private String topic = "";
    private int partition;
    private long offset;
    private long timestamp;
    private byte[] key;
    private byte[] value;
    private Headers headers = new RecordHeaders();
    private Object prepared;

    public TopicRecordWritable() {
    }

    public TopicRecordWritable(ConsumerRecord<byte[], byte[]> record) {
        set(record);
    }

    /** Makes this hold {@code record}, with nothing prepared; shares its byte arrays. */
    public void set(ConsumerRecord<byte[], byte[]> record) {
        set(record, null);
    }

    /** Makes this hold {@code record} and what a {@link RecordPreparer} made of it; shares its byte arrays. */
    public void set(ConsumerRecord<byte[], byte[]> record, Object preparedRecord) {
        prepared = preparedRecord;
        topic = record.topic();
        partition = record.partition();
        offset = record.offset();
        timestamp = record.timestamp();
        key = record.key();
        value = record.value();
        headers = record.headers();
    }

    public String topic() {
        return topic;
    }

    public int partition() {
        return partition;
    }

    public long offset() {
        return offset;
    }

    public long timestamp() {
        return timestamp;
    }

    public byte[] key() {
        return key;
    }

    public byte[] value() {
        return value;
    }

    public Headers headers() {
        return headers;
    }

    /** What the job's {@link RecordPreparer} made of this record; null if nothing was prepared. */
    public Object prepared() {
        return prepared;
    }

    /** This record as a dataset row (see {@link io.tributary.hadoop.dataset.RecordSchema}). */
    public GenericRecord toAvro(RecordConverter converter) {
        return converter.convert(topic, partition, offset, timestamp, key, value, headers);
    }

    @Override
    public void write(DataOutput out) throws IOException {
        Text.writeString(out, topic);
        WritableUtils.writeVInt(out, partition);
        WritableUtils.writeVLong(out, offset);
        WritableUtils.writeVLong(out, timestamp);
        writeNullable(out, key);
        writeNullable(out, value);
        Header[] all = headers.toArray();
        WritableUtils.writeVInt(out, all.length);
        for (Header h : all) {
            Text.writeString(out, h.key());
            writeNullable(out, h.value());
        }
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        prepared = null;
        topic = Text.readString(in);
        partition = WritableUtils.readVInt(in);
        offset = WritableUtils.readVLong(in);
        timestamp = WritableUtils.readVLong(in);
        key = readNullable(in);
        value = readNullable(in);
        int count = WritableUtils.readVInt(in);
        RecordHeaders read = new RecordHeaders();
        for (int i = 0; i < count; i++) {
            read.add(Text.readString(in), readNullable(in));
        }
        headers = read;
    }

    private static void writeNullable(DataOutput out, byte[] bytes) throws IOException {
        if (bytes == null) {
            WritableUtils.writeVInt(out, -1);
        } else {
            WritableUtils.writeVInt(out, bytes.length);
            out.write(bytes);
        }
    }

    private static byte[] readNullable(DataInput in) throws IOException {
        int length = WritableUtils.readVInt(in);
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TopicRecordWritable r && topic.equals(r.topic) && partition == r.partition
            && offset == r.offset && timestamp == r.timestamp && Arrays.equals(key, r.key)
            && Arrays.equals(value, r.value) && Arrays.equals(headers.toArray(), r.headers.toArray());
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, partition, offset);
    }

    @Override
    public String toString() {
        return topic + "-" + partition + "@" + offset;
    }
}
