package io.tributary.broker.log.remote;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;

/**
 * The record batches of a remote segment copy's log file from a file position on, read in chunks of at least a given
 * size (a batch larger than that is read whole): a consumer's read ({@link RemoteLogReader}) and a follower rebuilding
 * the producer state of a copy ({@link RemoteAuxState}) walk a copy with it. Checking each batch's CRC is the caller's
 * ({@link #checkCrc}); a copy cut inside a batch is refused with {@link CorruptRecordException}. Not thread-safe.
 */
final class RemoteBatches {
    /** Kafka's batch header: 8-byte base offset, then the 4-byte length of the rest. */
    private static final int LENGTH_OFFSET = 8;
    private static final int LOG_OVERHEAD = 12;

    private final RemoteStorage storage;
    private final TopicPartition tp;
    private final RemoteSegment segment;
    private final int chunkBytes;
    private long position;
    private Iterator<MutableRecordBatch> chunk = Collections.emptyIterator();

    RemoteBatches(RemoteStorage storage, TopicPartition tp, RemoteSegment segment, long position, int chunkBytes) {
        this.storage = storage;
        this.tp = tp;
        this.segment = segment;
        this.position = position;
        this.chunkBytes = chunkBytes;
    }

    /** The next batch of the copy's log file, or null at its end. */
    MutableRecordBatch next() throws IOException {
        while (!chunk.hasNext()) {
            if (!readChunk()) {
                return null;
            }
        }
        return chunk.next();
    }

    /** @return false at the end of the file */
    private boolean readChunk() throws IOException {
        int bytes = chunkBytes;
        while (true) {
            ByteBuffer read = storage.read(tp, segment, RemoteFile.LOG, position, bytes);
            if (read.remaining() < LOG_OVERHEAD) {
                return false;
            }
            List<MutableRecordBatch> whole = new ArrayList<>();
            int consumed = 0;
            for (MutableRecordBatch batch : MemoryRecords.readableRecords(read).batches()) {
                whole.add(batch);
                consumed += batch.sizeInBytes();
            }
            if (consumed > 0) {
                position += consumed;
                chunk = whole.iterator();
                return true;
            }
            // Not one whole batch in the chunk: the next one is larger (read it whole), or the copy is cut short.
            int size = read.getInt(LENGTH_OFFSET) + LOG_OVERHEAD;
            if (size <= read.remaining() || read.remaining() < bytes) {
                throw corrupt(tp, segment, "it ends inside the batch at position " + position);
            }
            bytes = size;
        }
    }

    /** @throws CorruptRecordException naming the copy if {@code batch} fails its CRC */
    static void checkCrc(TopicPartition tp, RemoteSegment segment, MutableRecordBatch batch) {
        if (!batch.isValid()) {
            throw corrupt(tp, segment, "the batch at offset " + batch.baseOffset() + " fails its CRC");
        }
    }

    private static CorruptRecordException corrupt(TopicPartition tp, RemoteSegment segment, String why) {
        return new CorruptRecordException("The remote copy " + segment.location() + " of " + tp + " is corrupt: " + why);
    }
}
