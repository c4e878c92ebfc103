package io.tributary.hadoop.input;

import io.tributary.hadoop.tiered.AbortedTransaction;
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
 * One map task's work from tiered storage: the offsets {@code range} of one segment copy (the folder
 * {@code location} of the partition, whose files start at {@code baseOffset}), read straight from the FileSystem
 * without a broker. Its preferred hosts hold most of the copy's blocks; {@code aborted} are the transactions to skip
 * under read_committed (empty under read_uncommitted).
 *
 * <p>A value: nothing changes it after construction, except Hadoop's {@link #readFields} on an instance it has just
 * made with the no-argument constructor.
 */
public final class TieredSplit extends LoadSplit {
    private String topic;
    private OffsetRange range;
    private String location;
    private long baseOffset;
    private List<String> hosts;
    private long bytes;
    private List<AbortedTransaction> aborted;

    /** For Hadoop's deserialization only. */
    public TieredSplit() {
        this("", new OffsetRange(0, 0, 0), "-", 0, List.of(), 0, List.of());
    }

    public TieredSplit(String topic, OffsetRange range, String location, long baseOffset, List<String> hosts, long bytes,
                       List<AbortedTransaction> aborted) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.range = range;
        this.location = location;
        this.baseOffset = baseOffset;
        this.hosts = List.copyOf(hosts);
        this.bytes = bytes;
        this.aborted = List.copyOf(aborted);
    }

    public String topic() {
        return topic;
    }

    public OffsetRange range() {
        return range;
    }

    /** The copy's folder below the partition's folder of the tiered layout. */
    public String location() {
        return location;
    }

    public long baseOffset() {
        return baseOffset;
    }

    public List<AbortedTransaction> aborted() {
        return aborted;
    }

    @Override
    public long span() {
        return range.span();
    }

    /** About the bytes of the copy the range covers: what Hadoop starts the largest splits by. */
    @Override
    public long getLength() {
        return bytes;
    }

    @Override
    public String[] getLocations() {
        return hosts.toArray(String[]::new);
    }

    @Override
    public String describe() {
        return span() + " offsets, " + range + " from the tiered copy " + location + (hosts.isEmpty() ? "" : ", on " + hosts);
    }

    @Override
    public void write(DataOutput out) throws IOException {
        Text.writeString(out, topic);
        WritableUtils.writeVInt(out, range.partition());
        WritableUtils.writeVLong(out, range.start());
        WritableUtils.writeVLong(out, range.end());
        Text.writeString(out, location);
        WritableUtils.writeVLong(out, baseOffset);
        WritableUtils.writeVLong(out, bytes);
        WritableUtils.writeVInt(out, hosts.size());
        for (String host : hosts) {
            Text.writeString(out, host);
        }
        WritableUtils.writeVInt(out, aborted.size());
        for (AbortedTransaction txn : aborted) {
            WritableUtils.writeVLong(out, txn.producerId());
            WritableUtils.writeVLong(out, txn.firstOffset());
            WritableUtils.writeVLong(out, txn.lastOffset());
            WritableUtils.writeVLong(out, txn.lastStableOffset());
        }
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        String readTopic = Text.readString(in);
        OffsetRange readRange = new OffsetRange(WritableUtils.readVInt(in), WritableUtils.readVLong(in), WritableUtils.readVLong(in));
        String readLocation = Text.readString(in);
        long readBase = WritableUtils.readVLong(in);
        long readBytes = WritableUtils.readVLong(in);
        int hostCount = WritableUtils.readVInt(in);
        if (hostCount < 0) {
            throw new IOException("corrupt split: " + hostCount + " hosts");
        }
        List<String> readHosts = new ArrayList<>(hostCount);
        for (int i = 0; i < hostCount; i++) {
            readHosts.add(Text.readString(in));
        }
        int abortedCount = WritableUtils.readVInt(in);
        if (abortedCount < 0) {
            throw new IOException("corrupt split: " + abortedCount + " aborted transactions");
        }
        List<AbortedTransaction> readAborted = new ArrayList<>(abortedCount);
        for (int i = 0; i < abortedCount; i++) {
            readAborted.add(new AbortedTransaction(WritableUtils.readVLong(in), WritableUtils.readVLong(in),
                WritableUtils.readVLong(in), WritableUtils.readVLong(in)));
        }
        topic = readTopic;
        range = readRange;
        location = readLocation;
        baseOffset = readBase;
        bytes = readBytes;
        hosts = Collections.unmodifiableList(readHosts);
        aborted = Collections.unmodifiableList(readAborted);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TieredSplit other && topic.equals(other.topic) && range.equals(other.range)
            && location.equals(other.location) && baseOffset == other.baseOffset && hosts.equals(other.hosts)
            && bytes == other.bytes && aborted.equals(other.aborted);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, range, location, baseOffset, hosts, bytes, aborted);
    }

    @Override
    public String toString() {
        return topic + " " + describe();
    }
}
