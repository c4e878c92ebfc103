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
 * One map task's work from tiered storage: consecutive offset ranges of one partition, each in one segment copy, read
 * straight from the FileSystem without a broker. Its preferred hosts hold most of the copies' blocks; {@code aborted}
 * are the transactions to skip under read_committed (empty under read_uncommitted).
 *
 * <p>A value: nothing changes it after construction, except Hadoop's {@link #readFields} on an instance it has just
 * made with the no-argument constructor.
 */
public final class TieredSplit extends LoadSplit {
    /**
     * The offsets {@code range} of the copy in the folder {@code location} (below the partition's folder of the tiered
     * layout), whose files start at {@code baseOffset}.
     */
    public record CopyRange(String location, long baseOffset, OffsetRange range) {
    }

    private String topic;
    private List<CopyRange> copies;
    private List<String> hosts;
    private long bytes;
    private List<AbortedTransaction> aborted;

    /** For Hadoop's deserialization only. */
    public TieredSplit() {
        this("", List.of(new CopyRange("-", 0, new OffsetRange(0, 0, 0))), List.of(), 0, List.of());
    }

    public TieredSplit(String topic, List<CopyRange> copies, List<String> hosts, long bytes, List<AbortedTransaction> aborted) {
        if (copies.isEmpty()) {
            throw new IllegalArgumentException("a tiered split needs a copy to read");
        }
        this.topic = Objects.requireNonNull(topic, "topic");
        this.copies = List.copyOf(copies);
        this.hosts = List.copyOf(hosts);
        this.bytes = bytes;
        this.aborted = List.copyOf(aborted);
    }

    public String topic() {
        return topic;
    }

    /** The copies to read, in offset order. */
    public List<CopyRange> copies() {
        return copies;
    }

    /** All the offsets the split covers. */
    public OffsetRange range() {
        return new OffsetRange(copies.get(0).range().partition(), copies.get(0).range().start(),
            copies.get(copies.size() - 1).range().end());
    }

    public List<AbortedTransaction> aborted() {
        return aborted;
    }

    @Override
    public long span() {
        return copies.stream().mapToLong(copy -> copy.range().span()).sum();
    }

    /** About the bytes of the copies the ranges cover: what Hadoop starts the largest splits by. */
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
        return span() + " offsets, " + range() + " from " + copies.size() + (copies.size() == 1 ? " tiered copy" : " tiered copies")
            + (hosts.isEmpty() ? "" : ", on " + hosts);
    }

    @Override
    public void write(DataOutput out) throws IOException {
        Text.writeString(out, topic);
        WritableUtils.writeVInt(out, copies.size());
        for (CopyRange copy : copies) {
            Text.writeString(out, copy.location());
            WritableUtils.writeVLong(out, copy.baseOffset());
            WritableUtils.writeVInt(out, copy.range().partition());
            WritableUtils.writeVLong(out, copy.range().start());
            WritableUtils.writeVLong(out, copy.range().end());
        }
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
        List<CopyRange> readCopies = new ArrayList<>();
        for (int i = 0, count = count(in, "copies"); i < count; i++) {
            readCopies.add(new CopyRange(Text.readString(in), WritableUtils.readVLong(in),
                new OffsetRange(WritableUtils.readVInt(in), WritableUtils.readVLong(in), WritableUtils.readVLong(in))));
        }
        long readBytes = WritableUtils.readVLong(in);
        List<String> readHosts = new ArrayList<>();
        for (int i = 0, count = count(in, "hosts"); i < count; i++) {
            readHosts.add(Text.readString(in));
        }
        List<AbortedTransaction> readAborted = new ArrayList<>();
        for (int i = 0, count = count(in, "aborted transactions"); i < count; i++) {
            readAborted.add(new AbortedTransaction(WritableUtils.readVLong(in), WritableUtils.readVLong(in),
                WritableUtils.readVLong(in), WritableUtils.readVLong(in)));
        }
        if (readCopies.isEmpty()) {
            throw new IOException("corrupt split: no copy");
        }
        topic = readTopic;
        copies = Collections.unmodifiableList(readCopies);
        bytes = readBytes;
        hosts = Collections.unmodifiableList(readHosts);
        aborted = Collections.unmodifiableList(readAborted);
    }

    private static int count(DataInput in, String what) throws IOException {
        int count = WritableUtils.readVInt(in);
        if (count < 0) {
            throw new IOException("corrupt split: " + count + " " + what);
        }
        return count;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TieredSplit other && topic.equals(other.topic) && copies.equals(other.copies)
            && hosts.equals(other.hosts) && bytes == other.bytes && aborted.equals(other.aborted);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, copies, hosts, bytes, aborted);
    }

    @Override
    public String toString() {
        return topic + " " + describe();
    }
}
