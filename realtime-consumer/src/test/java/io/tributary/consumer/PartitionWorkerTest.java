package io.tributary.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A partition worker on a real thread pool, with handlers that the test controls. */
class PartitionWorkerTest {
    private static final TopicPartition PARTITION = new TopicPartition("t", 0);

    private final ExecutorService pool = Executors.newFixedThreadPool(2);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    @AfterEach
    void stopPool() throws InterruptedException {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private PartitionWorker worker(ThrowingHandler handler, RetryPolicy retries) {
        HandlerInvoker invoker = new HandlerInvoker() {
            @Override
            public boolean perRecord() {
                return true;
            }

            @Override
            public void invoke(List<ConsumerRecord<byte[], byte[]>> unit) throws Exception {
                handler.handle(unit.get(0));
            }

            @Override
            public void close() {
            }
        };
        RecordProcessor processor = new RecordProcessor(invoker, retries, Optional.empty(), Time.SYSTEM);
        return new PartitionWorker(PARTITION, processor, pool, 7, failure::set, Time.SYSTEM);
    }

    @FunctionalInterface
    private interface ThrowingHandler {
        void handle(ConsumerRecord<byte[], byte[]> record) throws Exception;
    }

    private static List<ConsumerRecord<byte[], byte[]>> records(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(offset -> new ConsumerRecord<byte[], byte[]>("t", 0, offset, null, new byte[0])).toList();
    }

    private static long deadlineIn(Duration duration) {
        return Time.SYSTEM.milliseconds() + duration.toMillis();
    }

    @Test
    void handlesRecordsInOrderAcrossChunksAndReportsTheNextOffset() {
        List<Long> handled = new CopyOnWriteArrayList<>();
        PartitionWorker worker = worker(record -> handled.add(record.offset()), RetryPolicy.none());

        worker.enqueue(records(0, 20));
        worker.enqueue(records(20, 50));

        await().atMost(Duration.ofSeconds(10)).until(() -> handled.size() == 50);
        assertThat(handled).isSorted().doesNotHaveDuplicates();
        assertThat(worker.completedOffset()).map(OffsetAndMetadata::offset).hasValue(50L);
        assertThat(worker.metrics().sample(1_000_000_000L, OptionalLong.empty(), 0, false).recordsProcessed())
                .isEqualTo(50);
    }

    @Test
    void abortCutsARetryBackoffShortAndLeavesTheRecordUnfinished() throws InterruptedException {
        AtomicInteger attempts = new AtomicInteger();
        PartitionWorker worker = worker(record -> {
            attempts.incrementAndGet();
            throw new IllegalStateException("always");
        }, RetryPolicy.exponential(5, Duration.ofHours(1), Duration.ofHours(1)));

        worker.enqueue(records(0, 3));
        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.get() == 1);
        worker.abort();

        assertThat(worker.awaitIdle(deadlineIn(Duration.ofSeconds(10)))).isTrue();
        assertThat(attempts).hasValue(1);
        assertThat(worker.completedOffset()).isEmpty();
        assertThat(failure.get()).isNull();
    }

    @Test
    void abortWaitsForTheHandlerInProgressAndCountsItAsFinished() throws InterruptedException {
        CountDownLatch inHandler = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Long> handled = new CopyOnWriteArrayList<>();
        PartitionWorker worker = worker(record -> {
            if (record.offset() == 2) {
                inHandler.countDown();
                release.await(10, TimeUnit.SECONDS);
            }
            handled.add(record.offset());
        }, RetryPolicy.none());

        worker.enqueue(records(0, 10));
        assertThat(inHandler.await(10, TimeUnit.SECONDS)).isTrue();
        worker.abort();
        assertThat(worker.awaitIdle(deadlineIn(Duration.ofMillis(50)))).isFalse();
        release.countDown();

        assertThat(worker.awaitIdle(deadlineIn(Duration.ofSeconds(10)))).isTrue();
        assertThat(handled).containsExactly(0L, 1L, 2L);
        assertThat(worker.completedOffset()).map(OffsetAndMetadata::offset).hasValue(3L);
        assertThat(worker.queued()).isZero();
    }

    @Test
    void exhaustedRetriesWithTheStopPolicyReportAFailureAndStopThePartition() {
        List<Long> handled = new CopyOnWriteArrayList<>();
        PartitionWorker worker = worker(record -> {
            if (record.offset() == 4) {
                throw new IllegalStateException("bad record");
            }
            handled.add(record.offset());
        }, RetryPolicy.exponential(2, Duration.ofMillis(1), Duration.ofMillis(1)));

        worker.enqueue(records(0, 10));

        await().atMost(Duration.ofSeconds(10)).until(() -> failure.get() != null);
        assertThat(failure.get()).isInstanceOf(RecordProcessingException.class)
                .hasMessage("handler failed on t-0@4 after 3 attempt(s)");
        assertThat(handled).containsExactly(0L, 1L, 2L, 3L);
        assertThat(worker.completedOffset()).map(OffsetAndMetadata::offset).hasValue(4L);
        assertThat(worker.aborted()).isTrue();
    }
}
