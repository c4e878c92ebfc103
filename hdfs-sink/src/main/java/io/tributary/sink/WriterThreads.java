package io.tributary.sink;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Writes consumed records into their partitions' files on a few threads, so the poll thread
 * fetches and parses the next batch meanwhile (Parquet encoding and Kafka decoding then use two
 * cores). A partition always goes to the same thread, so its records stay in order. Between
 * {@link #submit} and {@link #await}, the submitted partitions' state and files belong to the
 * writer threads; the poll thread touches them again only after {@code await} returns, which also
 * makes the writers' changes visible to it. Poll thread only.
 */
final class WriterThreads implements AutoCloseable {
    private final List<ExecutorService> threads = new ArrayList<>();
    private final List<PartitionWriter> writers;
    private final List<Future<WriteOutcome>> pending = new ArrayList<>();

    /** @param writers one per thread */
    WriterThreads(List<PartitionWriter> writers) {
        if (writers.isEmpty()) {
            throw new IllegalArgumentException("at least one writer thread is needed");
        }
        this.writers = List.copyOf(writers);
        for (int i = 0; i < writers.size(); i++) {
            String name = "tributary-sink-writer-" + i;
            threads.add(Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            }));
        }
    }

    /** Starts writing {@code records} of {@code state}'s partition; returns at once. */
    void submit(PartitionState state, List<ConsumerRecord<byte[], byte[]>> records) {
        int lane = Math.floorMod(state.partition().hashCode(), threads.size());
        PartitionWriter writer = writers.get(lane);
        pending.add(threads.get(lane).submit(() -> writer.write(state, records)));
    }

    boolean isIdle() {
        return pending.isEmpty();
    }

    /** Waits for everything submitted (uninterruptibly: the files must be in a known state). */
    List<WriteOutcome> await() {
        List<WriteOutcome> outcomes = new ArrayList<>(pending.size());
        boolean interrupted = false;
        try {
            for (Future<WriteOutcome> f : pending) {
                while (true) {
                    try {
                        outcomes.add(f.get());
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    } catch (ExecutionException e) {
                        throw new IllegalStateException("a writer thread failed unexpectedly", e.getCause());
                    }
                }
            }
        } finally {
            pending.clear();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return outcomes;
    }

    @Override
    public void close() {
        threads.forEach(ExecutorService::shutdown);
        for (ExecutorService t : threads) {
            try {
                t.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
