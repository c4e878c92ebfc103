package io.tributary.broker.log.remote;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.log.AbortedTxn;
import io.tributary.broker.log.PartitionLog;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Records;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves fetches below a tiered log's local start from its remote part, on a pool of its own
 * ({@code remote.log.reader.threads}), so that a slow remote storage never holds up a request handler or a local
 * fetch. A read finds the copy holding the offset in the remote metadata, the position through the copy's offset
 * index ({@link RemoteIndexCache}), and returns whole batches up to the bytes asked (at least one), each checked
 * against its CRC-32C first: a copy that fails is refused with {@link CorruptRecordException} naming it, and nothing
 * of it is served. Thread-safe.
 */
public final class RemoteLogReader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteLogReader.class);
    /** Bytes read at once when scanning from an index position to the offset asked. */
    private static final int MIN_READ_BYTES = 64 * 1024;

    private final RemoteStorage storage;
    private final RemoteLogManager manager;
    private final RemoteIndexCache indexes;
    private final ExecutorService readers;

    public RemoteLogReader(RemoteStorage storage, RemoteLogManager manager, int threads) {
        this.storage = storage;
        this.manager = manager;
        this.indexes = new RemoteIndexCache(storage);
        this.readers = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "tributary-remote-log-reader");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** What a remote read returns: the batches, and for read_committed the aborted transactions among them. */
    public record RemoteRead(Records records, List<AbortedTxn> abortedTxns) {
    }

    /**
     * Reads {@code log}'s remote part from the batch holding {@code offset}, on the reader pool.
     *
     * @param maxBytes       most bytes to return, though at least the first batch if {@code minOneBatch}
     * @param limit          no batch holding this offset or later is returned (the high watermark or LSO)
     * @param readCommitted  whether to find the aborted transactions the records overlap
     * @return the read; failed with OffsetOutOfRangeException if the remote part does not hold the offset, with
     *         CorruptRecordException for a copy that fails its CRC, or with the storage's I/O error
     */
    public CompletableFuture<RemoteRead> read(PartitionLog log, long offset, int maxBytes, boolean minOneBatch, long limit,
                                              boolean readCommitted) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return readNow(log, offset, maxBytes, minOneBatch, limit, readCommitted);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (CorruptRecordException e) {
                LOG.error("{}: refusing to serve offset {} from remote storage: {}", log.topicPartition(), offset, e.getMessage());
                throw e;
            }
        }, readers);
    }

    private RemoteRead readNow(PartitionLog log, long offset, int maxBytes, boolean minOneBatch, long limit,
                               boolean readCommitted) throws IOException {
        TopicPartition tp = log.topicPartition();
        RemoteLogMetadata metadata = manager.metadata(tp).orElse(null);
        if (metadata == null || metadata.segmentFrom(offset).isEmpty()) {
            metadata = storage.metadata(tp); // this broker has not read it yet, or a copy was listed meanwhile
        }
        RemoteSegment segment = metadata.segmentFrom(offset).orElseThrow(() -> new OffsetOutOfRangeException(
                "Offset " + offset + " of " + tp + " is neither local nor in remote storage"));
        List<MutableRecordBatch> batches = batches(tp, segment, Math.max(offset, segment.startOffset()), maxBytes,
                minOneBatch, limit);
        Records records = concat(batches);
        if (!readCommitted || batches.isEmpty()) {
            return new RemoteRead(records, List.of());
        }
        long upperBound = batches.get(batches.size() - 1).lastOffset() + 1;
        return new RemoteRead(records, abortedTxns(log, metadata, segment, offset, upperBound));
    }

    /** The whole batches from the one holding {@code offset} within the copy, each checked against its CRC. */
    private List<MutableRecordBatch> batches(TopicPartition tp, RemoteSegment segment, long offset, int maxBytes,
                                             boolean minOneBatch, long limit) throws IOException {
        RemoteBatches copy = new RemoteBatches(storage, tp, segment, indexes.position(tp, segment, offset),
                Math.max(maxBytes, MIN_READ_BYTES));
        List<MutableRecordBatch> found = new ArrayList<>();
        int bytes = 0;
        for (MutableRecordBatch batch = copy.next(); batch != null; batch = copy.next()) {
            if (batch.lastOffset() < offset) {
                continue;
            }
            if (batch.baseOffset() >= limit || batch.baseOffset() >= segment.endOffset()
                    || bytes + batch.sizeInBytes() > maxBytes && !(found.isEmpty() && minOneBatch)) {
                break;
            }
            RemoteBatches.checkCrc(tp, segment, batch);
            found.add(batch);
            bytes += batch.sizeInBytes();
        }
        return found;
    }

    private static Records concat(List<MutableRecordBatch> batches) {
        int size = batches.stream().mapToInt(MutableRecordBatch::sizeInBytes).sum();
        ByteBuffer buffer = ByteBuffer.allocate(size);
        batches.forEach(batch -> batch.writeTo(buffer));
        return MemoryRecords.readableRecords(buffer.flip());
    }

    /**
     * The aborted transactions that end at or after {@code fetchOffset} and start below {@code upperBound}: from the
     * .txnindex of the copies from {@code segment} on, then those whose markers lie beyond the remote part (the
     * metadata names them, and the local log's indexes hold them).
     */
    private List<AbortedTxn> abortedTxns(PartitionLog log, RemoteLogMetadata metadata, RemoteSegment segment, long fetchOffset,
                                         long upperBound) throws IOException {
        Set<AbortedTxn> found = new LinkedHashSet<>();
        List<AbortedTxn> collected = new ArrayList<>();
        List<RemoteSegment> copies = new ArrayList<>(List.of(segment));
        copies.addAll(metadata.segmentsAfter(segment));
        boolean complete = false;
        for (RemoteSegment copy : copies) {
            if (AbortedTxn.collect(indexes.abortedTxns(log.topicPartition(), copy), fetchOffset, upperBound, collected)) {
                complete = true;
                break;
            }
        }
        found.addAll(collected);
        if (!complete) {
            metadata.abortedAcrossEnd().stream()
                    .filter(txn -> txn.lastOffset() >= fetchOffset && txn.firstOffset() < upperBound).forEach(found::add);
            found.addAll(log.abortedTxns(fetchOffset, upperBound));
        }
        return new ArrayList<>(found);
    }

    @Override
    public void close() throws InterruptedException {
        readers.shutdownNow();
        readers.awaitTermination(10, TimeUnit.SECONDS);
    }
}
