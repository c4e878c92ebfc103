package io.tributary.broker.log.remote;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import io.tributary.broker.log.ClosedSegmentFiles;
import org.apache.kafka.common.TopicPartition;

/**
 * Where tiered logs keep their remote part: the segment copies and, per partition, the metadata that lists them (the
 * roles of KIP-405's RemoteStorageManager and RemoteLogMetadataManager in one). broker-core has no implementation:
 * one is found at start-up through a {@link RemoteStorageProvider} (the remote-storage-hdfs module's, over any Hadoop
 * FileSystem).
 *
 * <p>The contract the {@link RemoteLogManager} relies on:
 * <ul>
 *   <li>{@link #copy} puts a segment's files at a new location of their own, durable when it returns; nothing lists
 *       them until a {@link #commit} does, and no later copy ever writes there, so a listed copy never changes.</li>
 *   <li>{@link #commit} is a compare-and-set: it publishes the next metadata only if the newest is still the one the
 *       writer read (same version), atomically (a crash leaves the old or the new, never a mix).</li>
 *   <li>{@link #delete} is only called for copies no committed metadata lists any more (or never listed).</li>
 * </ul>
 * Implementations are thread-safe; calls for one partition come from one thread at a time, reads from any.
 */
public interface RemoteStorage extends Closeable {

    /** The newest committed metadata of {@code tp}'s remote part; {@link RemoteLogMetadata#EMPTY} if none was. */
    RemoteLogMetadata metadata(TopicPartition tp) throws IOException;

    /**
     * Copies a closed segment's log and index files, the leader-epoch checkpoint up to its end and, if given, the
     * producer snapshot at its end (both in Kafka's format, made by the caller) to a new location, durably.
     *
     * @return the location, for the {@link RemoteSegment} that will list the copy
     */
    String copy(TopicPartition tp, ClosedSegmentFiles segment, byte[] leaderEpochCheckpoint, Optional<byte[]> producerSnapshot)
            throws IOException;

    /**
     * Publishes {@code next} as the newest metadata of {@code tp} if the newest is still {@code expected}.
     *
     * @return the committed metadata (with its new version), or null if another writer committed first
     */
    RemoteLogMetadata commit(TopicPartition tp, RemoteLogMetadata expected, RemoteLogMetadata next) throws IOException;

    /** The locations of every copy of {@code tp}'s segments, listed or not. */
    List<String> locations(TopicPartition tp) throws IOException;

    /** Deletes the copy at {@code location} (unlisted). A missing one is no error. */
    void delete(TopicPartition tp, String location) throws IOException;

    /**
     * Up to {@code length} bytes of one file of a listed copy from {@code position}, fewer only at the file's end.
     *
     * @throws java.io.FileNotFoundException if the copy has no such file
     */
    ByteBuffer read(TopicPartition tp, RemoteSegment segment, RemoteFile file, long position, int length) throws IOException;
}
