package io.tributary.broker.log.remote;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.tributary.broker.log.AbortedTxn;
import org.apache.kafka.common.TopicPartition;

/**
 * The offset indexes and aborted-transaction indexes of remote segment copies, the {@value #MAX_ENTRIES} used last:
 * copies never change, and a consumer reading a copy from its start looks its index up on every fetch. Thread-safe.
 */
final class RemoteIndexCache {
    private static final int MAX_ENTRIES = 256;
    /** Kafka's offset index entry: 4-byte offset relative to the base offset, 4-byte file position. */
    private static final int OFFSET_ENTRY_BYTES = 8;

    private final RemoteStorage storage;
    private final Map<String, Object> cached = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Object> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    RemoteIndexCache(RemoteStorage storage) {
        this.storage = storage;
    }

    /** The position in the copy's log file of the last indexed batch at or below {@code offset} (0 if none is). */
    int position(TopicPartition tp, RemoteSegment segment, long offset) throws IOException {
        ByteBuffer index = (ByteBuffer) load(tp, segment, RemoteFile.OFFSET_INDEX);
        long relative = offset - segment.baseOffset();
        int low = 0;
        int high = index.limit() / OFFSET_ENTRY_BYTES - 1;
        int position = 0;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            int entryOffset = index.getInt(middle * OFFSET_ENTRY_BYTES);
            if (entryOffset <= relative) {
                position = index.getInt(middle * OFFSET_ENTRY_BYTES + 4);
                low = middle + 1;
            } else {
                high = middle - 1;
            }
        }
        return position;
    }

    /** The aborted transactions whose markers the copy holds, in marker order (none if it has no .txnindex). */
    @SuppressWarnings("unchecked")
    List<AbortedTxn> abortedTxns(TopicPartition tp, RemoteSegment segment) throws IOException {
        return segment.txnIndex() ? (List<AbortedTxn>) load(tp, segment, RemoteFile.TXN_INDEX) : List.of();
    }

    private Object load(TopicPartition tp, RemoteSegment segment, RemoteFile file) throws IOException {
        String key = segment.location() + "/" + file;
        synchronized (cached) {
            Object found = cached.get(key);
            if (found != null) {
                return found;
            }
        }
        ByteBuffer bytes = storage.read(tp, segment, file, 0, Integer.MAX_VALUE);
        Object loaded = file == RemoteFile.TXN_INDEX ? AbortedTxn.readAll(bytes) : bytes.asReadOnlyBuffer();
        synchronized (cached) {
            cached.put(key, loaded);
        }
        return loaded;
    }
}
