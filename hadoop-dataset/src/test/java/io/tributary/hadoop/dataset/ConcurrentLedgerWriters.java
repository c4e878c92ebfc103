package io.tributary.hadoop.dataset;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writers that all advance one topic's ledger at the same time, each its own partition by one
 * offset per update, as sinks committing different partitions do: in threads of this JVM (each
 * with its own {@link OffsetLedger}, like separate processes) or in separate JVMs. Meanwhile a
 * reader checks that no partition ever reads lower than before.
 */
final class ConcurrentLedgerWriters {
    static final String TOPIC = "t";
    private static final long TIMEOUT_S = 120;
    private static final long READ_PAUSE_MS = 5;

    private ConcurrentLedgerWriters() {
    }

    /** Runs {@code writers} threads of {@code updates} updates each; returns the final state as read by a fresh ledger. */
    static Map<Integer, Long> inThreads(DatasetLayout layout, Configuration conf, int writers, int updates) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> running = new ArrayList<>();
        try {
            for (int w = 0; w < writers; w++) {
                OffsetLedger own = OffsetLedger.open(layout, TOPIC, conf);
                int partition = w;
                running.add(pool.submit(() -> {
                    start.await();
                    advanceOneByOne(own, partition, updates);
                    return null;
                }));
            }
            start.countDown();
            readWhile(layout, conf, () -> running.stream().anyMatch(f -> !f.isDone()));
            for (Future<?> f : running) {
                f.get(TIMEOUT_S, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        return OffsetLedger.open(layout, TOPIC, conf).read().nextOffsets();
    }

    /** As {@link #inThreads}, each writer a JVM of its own running {@link #main}. */
    static Map<Integer, Long> inProcesses(DatasetLayout layout, Configuration conf, int writers, int updates) throws Exception {
        List<Process> processes = new ArrayList<>();
        try {
            for (int w = 0; w < writers; w++) {
                processes.add(new ProcessBuilder(javaBinary(), "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                    ConcurrentLedgerWriters.class.getName(), layout.root().toString(), Integer.toString(w), Integer.toString(updates))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start());
            }
            AtomicBoolean anyAlive = new AtomicBoolean(true);
            readWhile(layout, conf, () -> anyAlive.getAndSet(processes.stream().anyMatch(Process::isAlive)));
            for (Process p : processes) {
                assertThat(p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)).as("writer process finished").isTrue();
                assertThat(p.exitValue()).as("writer process exit code").isZero();
            }
        } finally {
            processes.forEach(Process::destroyForcibly);
        }
        return OffsetLedger.open(layout, TOPIC, conf).read().nextOffsets();
    }

    /**
     * {@code writers} threads, each with its own ledger, read partition 0 and then all advance it
     * from what they read at the same moment, round after round, as a loader and a sink on the same
     * partition would. Asserts that exactly one wins each round and the others are refused.
     */
    static void raceForOnePartition(DatasetLayout layout, Configuration conf, int writers, int rounds) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(writers);
        try {
            for (int round = 1; round <= rounds; round++) {
                List<Future<Boolean>> attempts = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    OffsetLedger own = OffsetLedger.open(layout, TOPIC, conf);
                    long target = round * 100L + w;
                    attempts.add(pool.submit(() -> {
                        LedgerVersion read = own.readVersion();
                        together.await(TIMEOUT_S, TimeUnit.SECONDS);
                        try {
                            own.advance(read.entriesOf(List.of(0)), Map.of(0, target), Ledgers.unpinned("writer-" + target));
                            return true;
                        } catch (LedgerConflictException lost) {
                            return false;
                        }
                    }));
                }
                int winners = 0;
                for (Future<Boolean> f : attempts) {
                    winners += f.get(TIMEOUT_S, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(winners).as("writers whose advance of round %d succeeded", round).isEqualTo(1);
                assertThat(OffsetLedger.open(layout, TOPIC, conf).read().nextOffset(0).orElseThrow() / 100)
                    .as("round of the ledger's entry").isEqualTo(round);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Reads the ledger over and over while {@code writing}, failing if a partition ever moves back.
     * It pauses {@value #READ_PAUSE_MS} ms between reads: still several reads of every version, but
     * no longer a core spinning beside the writers (and the NameNode) on a 2-core machine.
     */
    private static void readWhile(DatasetLayout layout, Configuration conf, java.util.function.BooleanSupplier writing)
            throws IOException, InterruptedException {
        OffsetLedger reader = OffsetLedger.open(layout, TOPIC, conf);
        Map<Integer, Long> seen = new HashMap<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        while (writing.getAsBoolean() && System.nanoTime() < deadline) {
            Map<Integer, Long> now = reader.read().nextOffsets();
            seen.forEach((p, before) -> assertThat(now.getOrDefault(p, -1L)).as("partition %d read after %d", p, before)
                .isGreaterThanOrEqualTo(before));
            seen.putAll(now);
            Thread.sleep(READ_PAUSE_MS);
        }
    }

    private static void advanceOneByOne(OffsetLedger ledger, int partition, int updates) throws IOException {
        for (long next = 1; next <= updates; next++) {
            Ledgers.advanceNow(ledger, Map.of(partition, next));
        }
    }

    private static String javaBinary() {
        return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    }

    /** One writer process: {@code <dataset root URI> <partition> <updates>}. */
    public static void main(String[] args) throws IOException {
        DatasetLayout layout = DatasetLayout.utc(new Path(args[0]));
        advanceOneByOne(OffsetLedger.open(layout, TOPIC, new Configuration()), Integer.parseInt(args[1]), Integer.parseInt(args[2]));
    }
}
