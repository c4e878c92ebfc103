package io.tributary.hadoop.input;

import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One map task's work through the brokers: offset ranges of one topic (usually one range; several when small ranges
 * are packed together) and the preferred host, the leader of the first range's partition.
 * Serves both the new ({@code mapreduce}) and the old ({@code mapred}) API.
 *
 * <p>A value: nothing changes it after construction, except Hadoop's {@link #readFields} on an
 * instance it has just made with the no-argument constructor.
 */
public final class TopicSplit extends LoadSplit {
    private String topic;
    private List<OffsetRange> ranges;
    private String host; // "" when unknown

    /** For Hadoop's deserialization only. */
    public TopicSplit() {
        this("", List.of(), "");
    }

    public TopicSplit(String topic, List<OffsetRange> ranges, String host) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.ranges = List.copyOf(ranges);
        this.host = Objects.requireNonNull(host, "host");
    }

    public String topic() {
        return topic;
    }

    public List<OffsetRange> ranges() {
        return ranges;
    }

    public String host() {
        return host;
    }

    @Override
    public long span() {
        return ranges.stream().mapToLong(OffsetRange::span).sum();
    }

    @Override
    public String describe() {
        return span() + " offsets, " + ranges + (host.isEmpty() ? "" : ", near " + host);
    }

    @Override
    public String[] getLocations() {
        return host.isEmpty() ? new String[0] : new String[] {host};
    }

    @Override
    public void write(DataOutput out) throws IOException {
        Text.writeString(out, topic);
        Text.writeString(out, host);
        WritableUtils.writeVInt(out, ranges.size());
        for (OffsetRange r : ranges) {
            WritableUtils.writeVInt(out, r.partition());
            WritableUtils.writeVLong(out, r.start());
            WritableUtils.writeVLong(out, r.end());
        }
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        String readTopic = Text.readString(in);
        String readHost = Text.readString(in);
        int count = WritableUtils.readVInt(in);
        if (count < 0) {
            throw new IOException("corrupt split: " + count + " ranges");
        }
        List<OffsetRange> readRanges = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            readRanges.add(new OffsetRange(WritableUtils.readVInt(in), WritableUtils.readVLong(in), WritableUtils.readVLong(in)));
        }
        topic = readTopic;
        host = readHost;
        ranges = Collections.unmodifiableList(readRanges);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TopicSplit other && topic.equals(other.topic) && ranges.equals(other.ranges) && host.equals(other.host);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, ranges, host);
    }

    @Override
    public String toString() {
        return topic + " " + ranges + (host.isEmpty() ? "" : " @" + host);
    }
}
