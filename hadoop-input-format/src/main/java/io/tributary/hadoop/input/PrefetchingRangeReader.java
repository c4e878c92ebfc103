package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.LostRange;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Runs an {@link OffsetRangeReader} on a fetch thread of its own and hands its records to the
 * caller (the map thread) in chunks, so that polling and record decoding in kafka-clients overlap
 * with what the caller does with the records (encoding Parquet). The source's {@link RecordPreparer}
 * runs on the fetch thread too, and its results travel with the records.
 *
 * <p>Memory: at most {@value #QUEUE_CHUNKS} chunks wait in the queue, plus the one the fetch
 * thread fills and the one the caller reads; a chunk closes at {@value #CHUNK_RECORDS} records or
 * once it holds {@value #CHUNK_BYTES} bytes of keys, values and headers. So beyond the consumer's
 * own fetch buffers about 8.5 MiB (34 x 256 KiB, or 34 x 500 records, whichever is less, plus one
 * record per chunk) are held ahead of the caller, plus what the source's {@link RecordPreparer}
 * made of those records (at most 17,000 prepared objects, not counted in {@value #CHUNK_BYTES}; the
 * loader's shredded rows share the records' byte arrays and add about 400–650 bytes each for the
 * raw columns, so about 11 MiB more, plus some 50 bytes per column of a decoded value).
 *
 * <p>The caller sees what it would see reading the {@link OffsetRangeReader} itself: the same
 * records, {@link #progress()} of what the caller has taken (not of what was fetched), and a
 * failure of the fetch thread (its exception object itself, e.g. {@link LostRangeException})
 * thrown by {@link #next()} after the records read before it. One difference: lost ranges are
 * those known at the end of the chunk the caller reads, complete once {@link #next()} returned
 * false. The consumer is only touched by the fetch thread, which closes it when the split ends,
 * fails or {@link #close()} stops it.
 */
public final class PrefetchingRangeReader implements RangeReader {
    private static final Logger log = LoggerFactory.getLogger(PrefetchingRangeReader.class);

    // Deep enough to cover a fetch round trip: the consumer asks the broker for more only once
    // its last fetch is used up, and the caller must not run dry meanwhile (about 20 ms at 1M records/s).
    static final int QUEUE_CHUNKS = 32;
    static final int CHUNK_RECORDS = 500;
    static final int CHUNK_BYTES = 256 * 1024;
    /** How often a fetch thread blocked on a full queue looks whether the reader was closed. */
    private static final long HAND_OVER_CHECK_MS = 50;
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

    private final OffsetRangeReader source;
    private final BlockingQueue<Chunk> queue = new ArrayBlockingQueue<>(QUEUE_CHUNKS);
    private final Thread fetcher;
    private volatile boolean closed;

    // The caller's side: the chunk it reads and where.
    private Chunk chunk;
    private int index = -1;
    private ConsumerRecord<byte[], byte[]> current;
    private Object prepared;
    private float progress;

    /** Starts fetching at once on a thread from {@code threads}; the reader owns {@code source} and closes it. */
    public PrefetchingRangeReader(OffsetRangeReader source, ThreadFactory threads) {
        this.source = source;
        this.progress = source.progress();
        this.chunk = new Chunk(List.of(), new Object[0], new long[0], new float[0], progress, List.of(), false, null);
        this.fetcher = threads.newThread(this::fetch);
        fetcher.start();
    }

    @Override
    public boolean next() throws IOException {
        while (index + 1 >= chunk.records().size()) {
            if (chunk.failure() != null) {
                throw rethrow(chunk.failure());
            }
            if (chunk.last()) {
                current = null;
                prepared = null;
                progress = chunk.progressAfter();
                return false;
            }
            chunk = take();
            index = -1;
        }
        index++;
        current = chunk.records().get(index);
        prepared = chunk.prepared()[index];
        progress = chunk.progress()[index];
        return true;
    }

    @Override
    public ConsumerRecord<byte[], byte[]> current() {
        return current;
    }

    @Override
    public Object prepared() {
        return prepared;
    }

    @Override
    public long currentSize() {
        return chunk.sizes()[index];
    }

    @Override
    public float progress() {
        return progress;
    }

    @Override
    public List<LostRange> lostRanges() {
        return chunk.lost();
    }

    /** Stops the fetch thread (it closes the consumer) and waits for it to end. */
    @Override
    public void close() {
        closed = true;
        if (fetcher.isAlive()) {
            source.wakeup(); // a poll in progress returns now
        }
        queue.clear();
        try {
            fetcher.join(CLOSE_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (fetcher.isAlive()) {
            log.warn("fetch thread {} still running {} s after close", fetcher.getName(), CLOSE_WAIT.toSeconds());
        }
    }

    /** The next chunk; fails rather than waits forever if the fetch thread ended without handing one over. */
    private Chunk take() throws IOException {
        try {
            while (true) {
                Chunk next = queue.poll(HAND_OVER_CHECK_MS, TimeUnit.MILLISECONDS);
                if (next != null) {
                    return next;
                }
                if (!fetcher.isAlive()) {
                    next = queue.poll(); // handed over just before it ended
                    if (next != null) {
                        return next;
                    }
                    throw new IOException("fetch thread " + fetcher.getName() + " ended before the end of the split");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for records from " + fetcher.getName());
        }
    }

    private static IOException rethrow(Throwable failure) {
        if (failure instanceof IOException e) {
            return e;
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        return new IOException(failure);
    }

    /** The fetch thread: reads the split into chunks until it ends, fails or the reader is closed. */
    private void fetch() {
        ChunkBuilder building = new ChunkBuilder();
        try {
            boolean more = true;
            while (more) {
                more = source.next();
                if (more) {
                    building.add(source.current(), source.prepared(), source.progress());
                }
                // Hand over before a poll too, so the caller works on these while the poll runs.
                if (!more || building.full() || !source.hasFetchedRecords()) {
                    if (!handOver(building.build(source.progress(), source.lostRanges(), !more, null))) {
                        return;
                    }
                    building = new ChunkBuilder();
                }
            }
        } catch (Throwable e) {
            if (!closed) { // after close() the consumer's WakeupException is expected and nobody reads the queue
                handOver(building.build(source.progress(), source.lostRanges(), false, e));
            }
        } finally {
            source.close();
        }
    }

    /** Waits for room in the queue; false if the reader was closed or this thread interrupted meanwhile. */
    private boolean handOver(Chunk next) {
        try {
            while (!closed) {
                if (queue.offer(next, HAND_OVER_CHECK_MS, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            // The thread ends here (the interrupt is not restored, so closing the consumer is not cut short); take() reports it.
        }
        return false;
    }

    /**
     * Records with what the source's preparer made of them, their sizes and the caller's progress
     * after each, the lost ranges as of the last record, and whether the split ends (or failed) after them.
     */
    private record Chunk(List<ConsumerRecord<byte[], byte[]>> records, Object[] prepared, long[] sizes, float[] progress, float progressAfter,
                         List<LostRange> lost, boolean last, Throwable failure) {
    }

    private static final class ChunkBuilder {
        private final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(CHUNK_RECORDS);
        private final Object[] prepared = new Object[CHUNK_RECORDS];
        private final long[] sizes = new long[CHUNK_RECORDS];
        private final float[] progress = new float[CHUNK_RECORDS];
        private long bytes;

        void add(ConsumerRecord<byte[], byte[]> record, Object preparedRecord, float progressAfter) {
            long size = RecordSizes.of(record); // here, not on the caller's thread (it decodes header keys)
            prepared[records.size()] = preparedRecord;
            sizes[records.size()] = size;
            progress[records.size()] = progressAfter;
            records.add(record);
            bytes += size;
        }

        boolean full() {
            return records.size() == CHUNK_RECORDS || bytes >= CHUNK_BYTES;
        }

        Chunk build(float progressAfter, List<LostRange> lost, boolean last, Throwable failure) {
            return new Chunk(records, prepared, sizes, progress, progressAfter, lost, last, failure);
        }
    }
}
