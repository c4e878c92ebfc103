package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.testing.FakeTime;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class IdempotentAppenderTest {
    private static final long DAY_MS = TimeUnit.DAYS.toMillis(1);

    @TempDir
    Path dir;
    private final FakeTime time = new FakeTime();
    private final FakeScheduler scheduler = new FakeScheduler(time);
    private final IdempotentAppender appender = new IdempotentAppender(time, DAY_MS);
    private PartitionLog big;
    private PartitionLog small;

    @AfterEach
    void close() {
        if (big != null) {
            big.close();
        }
        if (small != null) {
            small.close();
        }
    }

    private PartitionLog open(String topic) throws Exception {
        TopicPartition tp = new TopicPartition(topic, 0);
        return PartitionLog.open(tp, dir.resolve(topic + "-0"), LogConfig.defaults(), time, scheduler, new FlushTimes(), 0L, 0L, true);
    }

    private static MemoryRecords idempotent(long producerId, int sequence) {
        return MemoryRecords.withIdempotentRecords(Compression.NONE, producerId, (short) 0, sequence,
                new SimpleRecord(1_000L, new byte[] {1}));
    }

    /** {@code batches} one-record batches of as many producers, in one append: a long replay for a later load. */
    private static MemoryRecords manyProducers(long firstProducerId, int batches) {
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(batches * 80);
        for (int i = 0; i < batches; i++) {
            MemoryRecordsBuilder builder = MemoryRecords.builder(buffer, RecordBatch.CURRENT_MAGIC_VALUE, Compression.NONE,
                    TimestampType.CREATE_TIME, 0L, RecordBatch.NO_TIMESTAMP, firstProducerId + i, (short) 0, 0, false,
                    RecordBatch.NO_PARTITION_LEADER_EPOCH);
            builder.append(new SimpleRecord(1_000L, new byte[] {1}));
            builder.close();
        }
        buffer.flip();
        return MemoryRecords.readableRecords(buffer);
    }

    @Test
    void loadingOnePartitionsProducersDoesNotHoldUpAnother() throws Exception {
        big = open("big");
        for (int i = 0; i < 40; i++) {
            big.appendAsLeader(manyProducers(1_000_000L + i * 5_000L, 5_000), 0);
        }
        small = open("small");
        Thread loadsTheBigOne = new Thread(() -> appender.append(big, idempotent(1, 0), 0));
        loadsTheBigOne.start();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(1))
            .until(() -> isLoadingProducerState(loadsTheBigOne));
        // The small partition's first append loads its own (empty) state only: it needs no lock the replay holds.
        appender.append(small, idempotent(2, 0), 0);
        assertThat(isLoadingProducerState(loadsTheBigOne)).as("the big replay still runs").isTrue();
        loadsTheBigOne.join(60_000);
        assertThat(loadsTheBigOne.isAlive()).isFalse();
    }

    private static boolean isLoadingProducerState(Thread thread) {
        return Arrays.stream(thread.getStackTrace()).anyMatch(frame ->
            frame.getClassName().equals(ProducerStateManager.class.getName()) && frame.getMethodName().equals("load"));
    }

    @Test
    void producersExpireAfterTheExpirationTimeWithoutWrites() throws Exception {
        small = open("small");
        appender.append(small, idempotent(7, 0), 0);
        appender.append(small, idempotent(8, 0), 0);
        time.sleep(DAY_MS / 2);
        appender.append(small, idempotent(8, 1), 0);
        time.sleep(DAY_MS / 2);
        assertThat(appender.removeExpiredProducers()).isEqualTo(1); // 7; 8 wrote half a day ago
        time.sleep(DAY_MS / 2);
        assertThat(appender.removeExpiredProducers()).isEqualTo(1);
        // An expired producer is unknown again: it may go on at any sequence, as after a lost state.
        appender.append(small, idempotent(7, 42), 0);
        assertThat(small.logEndOffset()).isEqualTo(4);
    }
}
