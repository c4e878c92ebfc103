package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.LostRange;
import io.tributary.hadoop.dataset.MissingPolicy;
import io.tributary.hadoop.dataset.RecordConverter;
import io.tributary.hadoop.testing.BrokerExtension;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The prefetching reader against a real broker: it reads what the plain reader reads with the
 * caller's progress, runs the record preparer on the fetch thread, hands the fetch thread's
 * failures over, and leaves no thread behind.
 */
class PrefetchingRangeReaderIT {
    @RegisterExtension
    static final BrokerExtension BROKER = new BrokerExtension();
    private static final int PER_PARTITION = 20_000; // more than the reader holds ahead (34 chunks of 500)

    private final List<Thread> fetchThreads = new CopyOnWriteArrayList<>();
    private final ThreadFactory threads = task -> {
        Thread thread = new Thread(task, "test-fetch");
        thread.setDaemon(true);
        fetchThreads.add(thread);
        return thread;
    };

    @BeforeAll
    static void createTopics() throws Exception {
        BROKER.broker().createTopic("p", 2);
        BROKER.broker().produce("p", 2, PER_PARTITION, System.currentTimeMillis() - 60_000, 1,
            (p, i) -> ("v" + i).getBytes(StandardCharsets.UTF_8));
        BROKER.broker().createTopic("lost", 1);
        BROKER.broker().produce("lost", 1, 200, System.currentTimeMillis() - 60_000, 1,
            (p, i) -> ("v" + i).getBytes(StandardCharsets.UTF_8));
        BROKER.broker().deleteRecordsBefore("lost", 0, 50);
    }

    @AfterEach
    void noFetchThreadLeft() {
        assertThat(fetchThreads).isNotEmpty().noneMatch(Thread::isAlive);
    }

    @Test
    void readsTheSameRecordsWithTheProgressOfWhatTheCallerTook() throws Exception {
        TopicSplit split = new TopicSplit("p", List.of(new OffsetRange(0, 17, 2500), new OffsetRange(1, 5, 5),
            new OffsetRange(1, 1000, PER_PARTITION)), "");
        List<String> plain = new ArrayList<>();
        try (OffsetRangeReader reader = plain(split, MissingPolicy.FAIL, Duration.ofSeconds(30))) {
            readAll(reader, plain);
        }
        List<String> prefetched = new ArrayList<>();
        try (PrefetchingRangeReader reader = new PrefetchingRangeReader(plain(split, MissingPolicy.FAIL, Duration.ofSeconds(30)), threads)) {
            assertThat(reader.progress()).isZero();
            readAll(reader, prefetched);
            assertThat(reader.next()).as("still at the end").isFalse();
            assertThat(reader.progress()).isEqualTo(1f);
            assertThat(reader.lostRanges()).isEmpty();
        }
        assertThat(prefetched).hasSize(2483 + PER_PARTITION - 1000).isEqualTo(plain);
    }

    @Test
    void aRecordStaysValidUntilTheNextCall() throws Exception {
        TopicSplit split = new TopicSplit("p", List.of(new OffsetRange(0, 0, PER_PARTITION)), "");
        List<String> plain = new ArrayList<>();
        try (OffsetRangeReader reader = plain(split, MissingPolicy.FAIL, Duration.ofSeconds(30))) {
            while (reader.next()) {
                plain.add(reader.current().offset() + "=" + new String(reader.current().value(), StandardCharsets.UTF_8));
            }
        }
        try (PrefetchingRangeReader reader = new PrefetchingRangeReader(plain(split, MissingPolicy.FAIL, Duration.ofSeconds(30)), threads)) {
            int read = 0;
            while (reader.next()) {
                ConsumerRecord<byte[], byte[]> record = reader.current(); // the fetch thread is up to a queue's worth ahead
                assertThat(record.offset() + "=" + new String(record.value(), StandardCharsets.UTF_8)).isEqualTo(plain.get(read++));
            }
            assertThat(read).isEqualTo(PER_PARTITION);
            assertThat(reader.current()).isNull();
        }
    }

    @Test
    void aLostRangeFailsTheCallerWithTheFetchThreadsException() {
        TopicSplit split = new TopicSplit("lost", List.of(new OffsetRange(0, 0, 200)), "");
        try (PrefetchingRangeReader reader = new PrefetchingRangeReader(plain(split, MissingPolicy.FAIL, Duration.ofSeconds(30)), threads)) {
            assertThatThrownBy(reader::next).isInstanceOf(LostRangeException.class).hasMessageContaining("lost-0 offsets [0, 50)");
            assertThatThrownBy(reader::next).as("the failure stays").isInstanceOf(LostRangeException.class);
            await().atMost(Duration.ofSeconds(30)).until(() -> !fetchThreads.get(0).isAlive()); // it closed its consumer and ended
        }
    }

    @Test
    void skippedRangesAreReportedAtTheEnd() throws Exception {
        TopicSplit split = new TopicSplit("lost", List.of(new OffsetRange(0, 0, 200)), "");
        try (PrefetchingRangeReader reader = new PrefetchingRangeReader(plain(split, MissingPolicy.SKIP, Duration.ofSeconds(30)), threads)) {
            List<String> read = new ArrayList<>();
            readAll(reader, read);
            assertThat(read).hasSize(150).first().asString().startsWith("0:50 ");
            assertThat(reader.lostRanges()).containsExactly(new LostRange("lost", 0, 0, 50));
        }
    }

    @Test
    void aStallAfterTheLastRecordFailsTheCallerAfterItHasReadEveryRecord() throws Exception {
        // The range runs past the end of the log: no progress once all records are read.
        TopicSplit split = new TopicSplit("p", List.of(new OffsetRange(0, 0, PER_PARTITION + 100)), "");
        try (PrefetchingRangeReader reader = new PrefetchingRangeReader(plain(split, MissingPolicy.FAIL, Duration.ofSeconds(1)), threads)) {
            int read = 0;
            while (read < PER_PARTITION) {
                assertThat(reader.next()).isTrue();
                read++;
            }
            assertThatThrownBy(reader::next).isInstanceOf(IOException.class).hasMessageContaining("no progress reading p-0 at offset " + PER_PARTITION);
        }
    }

    @Test
    void closeMidSplitStopsAPollingFetchThreadPromptly() throws Exception {
        TopicSplit split = new TopicSplit("p", List.of(new OffsetRange(1, 0, PER_PARTITION + 100)), "");
        PrefetchingRangeReader reader = new PrefetchingRangeReader(plain(split, MissingPolicy.FAIL, Duration.ofSeconds(60)), threads);
        assertThat(reader.next()).isTrue();
        // The fetch thread fills the queue and blocks, the caller reads on to the end of the log, where the fetch thread polls in vain.
        for (int i = 1; i < PER_PARTITION; i++) {
            assertThat(reader.next()).isTrue();
        }
        long start = System.nanoTime();
        reader.close();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(fetchThreads.get(0).isAlive()).isFalse();
    }

    @Test
    void closeWhileTheFetchThreadWaitsForRoomEndsIt() throws Exception {
        TopicSplit split = new TopicSplit("p", List.of(new OffsetRange(0, 0, PER_PARTITION)), "");
        PrefetchingRangeReader reader = new PrefetchingRangeReader(plain(split, MissingPolicy.FAIL, Duration.ofSeconds(60)), threads);
        assertThat(reader.next()).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> fetchThreads.get(0).getState() == Thread.State.TIMED_WAITING);
        reader.close();
        assertThat(fetchThreads.get(0).isAlive()).isFalse();
    }

    @Test
    void aFetchThreadThatEndsWithoutHandingOverFailsTheCaller() throws Exception {
        TopicSplit split = new TopicSplit("p", List.of(new OffsetRange(0, 0, PER_PARTITION)), "");
        try (PrefetchingRangeReader reader = new PrefetchingRangeReader(plain(split, MissingPolicy.FAIL, Duration.ofSeconds(60)), threads)) {
            assertThat(reader.next()).isTrue();
            await().atMost(Duration.ofSeconds(30)).until(() -> fetchThreads.get(0).getState() == Thread.State.TIMED_WAITING);
            fetchThreads.get(0).interrupt(); // blocked on the full queue: it gives up and ends
            assertThatThrownBy(() -> {
                while (reader.next()) {
                    assertThat(reader.current()).isNotNull();
                }
            }).isInstanceOf(IOException.class).hasMessageContaining("ended before the end of the split");
        }
    }

    @Test
    void preparedRowsEqualTheRowsTheConverterMakesOnTheCallersThread() throws Exception {
        TopicSplit split = new TopicSplit("p", List.of(new OffsetRange(0, 0, PER_PARTITION), new OffsetRange(1, 100, 700)), "");
        List<String> expected = new ArrayList<>();
        RecordConverter onCaller = RecordConverter.raw();
        try (OffsetRangeReader reader = plain(split, MissingPolicy.FAIL, Duration.ofSeconds(30))) {
            while (reader.next()) {
                expected.add(describe(onCaller.convert(reader.current())));
            }
        }
        RecordConverter onFetchThread = RecordConverter.raw();
        List<Thread> preparedOn = new CopyOnWriteArrayList<>();
        RecordPreparer preparer = record -> {
            preparedOn.add(Thread.currentThread());
            return onFetchThread.convert(record);
        };
        List<String> prefetched = new ArrayList<>();
        Set<Object> rows = Collections.newSetFromMap(new IdentityHashMap<>());
        try (PrefetchingRangeReader reader = new PrefetchingRangeReader(preparing(split, preparer), threads)) {
            while (reader.next()) {
                GenericRecord row = (GenericRecord) reader.prepared();
                assertThat(row.get("offset")).isEqualTo(reader.current().offset());
                prefetched.add(describe(row));
                rows.add(row);
            }
            assertThat(reader.prepared()).as("nothing past the end").isNull();
        }
        assertThat(prefetched).hasSize(PER_PARTITION + 600).isEqualTo(expected);
        assertThat(rows).as("a row of its own per record").hasSize(prefetched.size());
        assertThat(preparedOn).containsOnly(fetchThreads.get(0));

        List<String> plainPrepared = new ArrayList<>();
        try (OffsetRangeReader reader = preparing(split, record -> onCaller.convert(record))) {
            while (reader.next()) {
                plainPrepared.add(describe((GenericRecord) reader.prepared()));
            }
        }
        assertThat(plainPrepared).as("without prefetch, on the caller's thread").isEqualTo(expected);
    }

    @Test
    void aFailingPreparerFailsTheCallerAtThatRecordAfterTheRecordsBeforeIt() throws Exception {
        TopicSplit split = new TopicSplit("p", List.of(new OffsetRange(0, 0, PER_PARTITION)), "");
        IOException broken = new IOException("cannot prepare offset 1234");
        RecordPreparer preparer = record -> {
            if (record.offset() == 1234) {
                throw broken;
            }
            return record.offset();
        };
        try (PrefetchingRangeReader reader = new PrefetchingRangeReader(preparing(split, preparer), threads)) {
            for (long offset = 0; offset < 1234; offset++) {
                assertThat(reader.next()).isTrue();
                assertThat(reader.prepared()).isEqualTo(offset);
            }
            assertThatThrownBy(reader::next).isSameAs(broken);
            assertThatThrownBy(reader::next).as("the failure stays").isSameAs(broken);
            await().atMost(Duration.ofSeconds(30)).until(() -> !fetchThreads.get(0).isAlive()); // it closed its consumer and ended
        }
    }

    @Test
    void closeWhileTheFetchThreadPreparesEndsIt() throws Exception {
        TopicSplit split = new TopicSplit("p", List.of(new OffsetRange(0, 0, PER_PARTITION)), "");
        CountDownLatch preparing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RecordPreparer preparer = record -> {
            if (record.offset() == 100) { // mid-chunk: the caller has nothing yet and waits
                preparing.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new InterruptedIOException("interrupted while held");
                }
            }
            return record.offset();
        };
        PrefetchingRangeReader reader = new PrefetchingRangeReader(preparing(split, preparer), threads);
        assertThat(preparing.await(30, TimeUnit.SECONDS)).isTrue();
        Thread closer = new Thread(reader::close);
        closer.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> closer.getState() == Thread.State.TIMED_WAITING); // joining the fetch thread
        release.countDown();
        closer.join(Duration.ofSeconds(30).toMillis());
        assertThat(closer.isAlive()).isFalse();
        assertThat(fetchThreads.get(0).isAlive()).isFalse();
    }

    /** A row as text, byte arrays by content (Avro's own equality cannot compare them), header records included. */
    private static String describe(Object value) {
        if (value instanceof byte[] bytes) {
            return Arrays.toString(bytes);
        }
        if (value instanceof List<?> list) {
            return list.stream().map(PrefetchingRangeReaderIT::describe).toList().toString();
        }
        if (value instanceof GenericRecord row) {
            StringBuilder out = new StringBuilder("{");
            for (Schema.Field f : row.getSchema().getFields()) {
                out.append(f.name()).append('=').append(describe(row.get(f.pos()))).append(' ');
            }
            return out.append('}').toString();
        }
        return String.valueOf(value);
    }

    private static void readAll(RangeReader reader, List<String> read) throws IOException {
        while (reader.next()) {
            read.add(reader.current().partition() + ":" + reader.current().offset() + " " + reader.currentSize() + " " + reader.progress());
        }
    }

    private static OffsetRangeReader plain(TopicSplit split, MissingPolicy policy, Duration stallTimeout) {
        return new OffsetRangeReader(consumer(), split, policy, stallTimeout, Time.SYSTEM);
    }

    private static OffsetRangeReader preparing(TopicSplit split, RecordPreparer preparer) {
        return new OffsetRangeReader(consumer(), split, MissingPolicy.FAIL, Duration.ofSeconds(30), Time.SYSTEM, preparer);
    }

    private static KafkaConsumer<byte[], byte[]> consumer() {
        Configuration conf = new Configuration(false);
        conf.set(InputConfig.BOOTSTRAP_SERVERS, BROKER.broker().bootstrapServers());
        return new KafkaConsumer<>(new InputConfig(conf).consumerProps("test"));
    }
}
