package io.tributary.sink;

import io.tributary.hadoop.dataset.CommitIntent;
import io.tributary.hadoop.dataset.DatasetTopicName;
import io.tributary.hadoop.dataset.LostRange;
import io.tributary.hadoop.dataset.TopicRecreatedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The sink's poll loop: reads the assigned partitions, writes each record into the open file of
 * its partition and time bucket, and commits a partition's files when the {@link RotationPolicy}
 * or the memory budget says so, on rebalance and on shutdown. Everything but the record writing
 * runs on the one thread that calls {@link #run()}, including the rebalance callbacks, so the
 * consumer's assignment is the truth about ownership at every step; the {@link WriterThreads}
 * convert and write a batch while the next one is polled, and are waited for before any commit,
 * rebalance or state change. {@link #stop()} may be called from any thread.
 *
 * <p>Commit of a set of partitions: close their temp files, commit their offsets to the group
 * (the {@link OwnershipFence}), then {@link CommitProtocol#publish} (intent, ledger compare-and-set, rename); a
 * partition another writer advanced meanwhile drops its files and resumes at the ledger.
 * A storage failure at any step pauses the partitions concerned; they are retried with backoff
 * by {@link ResumePositions#recover}, which re-reads the records from the last commit: nothing is
 * lost and nothing is written twice.
 */
public final class HdfsSink implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(HdfsSink.class);
    private static final long MAX_POLL_MS = 100;
    /** How often the partitions' snapshot is taken for callers and the HTTP endpoint, whatever the log interval. */

    private final Consumer<byte[], byte[]> consumer;
    private final java.util.function.Consumer<ConsumerRebalanceListener> subscribe;
    private final DatasetTarget dataset;
    private final SinkLimits limits;
    private final OwnershipFence fence;
    private final BadRecords badRecords;
    private final RetentionGaps gaps;
    private final WriterThreads writers;
    private final SinkStatus status;
    private final SinkMonitor monitor;
    private final Time time;
    private final Map<TopicPartition, PartitionState> partitions = new LinkedHashMap<>();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean stopping;
    private RuntimeException stoppedBy; // a bad record under the fail policy, or a dataset of a deleted topic
    private final List<LostRange> lostRanges = new CopyOnWriteArrayList<>();
    private final Set<String> refusedTopics = new HashSet<>(); // named once in the log, then left paused
    private volatile Throwable failure; // what ended run(), written before finished counts down

    HdfsSink(Consumer<byte[], byte[]> consumer, java.util.function.Consumer<ConsumerRebalanceListener> subscribe,
             DatasetTarget dataset, SinkLimits limits, BadRecords badRecords, RetentionGaps gaps, WriterThreads writers,
             SinkStatus status, SinkMonitor monitor, Time time) {
        this.consumer = consumer;
        this.subscribe = subscribe;
        this.dataset = dataset;
        this.limits = limits;
        this.fence = new OwnershipFence(consumer, Duration.ofSeconds(30));
        this.badRecords = badRecords;
        this.gaps = gaps;
        this.writers = writers;
        this.status = status;
        this.monitor = monitor;
        this.time = time;
    }

    /**
     * Streams until {@link #stop()}, then commits the open files and leaves the group.
     *
     * @throws BadRecordException under bad.record.policy=fail, after committing what came before
     * @throws MissingRecordsException under on.missing=fail, after committing what came before
     * @throws IllegalStateException when the open files could not commit on stop (nothing is lost)
     */
    @Override
    public void run() {
        try {
            stream();
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            finished.countDown();
        }
    }

    private void stream() {
        try {
            subscribe.accept(new Rebalance());
            while (!stopping) {
                // The writer threads write the previous batch while this one is fetched and parsed.
                ConsumerRecords<byte[], byte[]> records;
                try {
                    records = consumer.poll(pollTimeout());
                } catch (OffsetOutOfRangeException e) {
                    finishWrites();
                    throwIfStopped();
                    skipGaps(e.offsetOutOfRangePartitions());
                    continue;
                }
                finishWrites();
                throwIfStopped();
                List<Claim> claims = claim(records);
                long now = time.milliseconds();
                commit(duePartitions(now), "rotation");
                enforceMemoryBudget();
                retryFailed();
                status.maybeReport(partitions.values(), consumer);
                startWrites(claims);
            }
            // Taken before the last writes: one of them failing is a partition left uncommitted too.
            List<PartitionState> streaming = partitions.values().stream().filter(s -> !s.isRecovering()).toList();
            finishWrites();
            throwIfStopped();
            commitOnStop(streaming);
        } catch (BadRecordException e) {
            commit(new ArrayList<>(partitions.values()), "stop on a bad record");
            throw e;
        } catch (MissingRecordsException e) {
            commit(new ArrayList<>(partitions.values()), "stop on records missing from the log");
            throw e;
        } finally {
            writers.close();
            consumer.close();
            badRecords.close();
            status.close();
            monitor.close();
        }
    }

    // A file that cannot commit now is not lost: whoever owns its partition next (this sink's next
    // start, or the member the group moved it to) re-reads its records from the last commit. But the
    // stop was not clean, and the caller (and its exit code) must say so.
    private void commitOnStop(List<PartitionState> streaming) {
        commit(streaming.stream().filter(s -> !s.isRecovering() && !s.files().isEmpty()).toList(), "shutdown");
        List<TopicPartition> uncommitted = streaming.stream()
            .filter(PartitionState::isRecovering).map(PartitionState::partition).toList();
        if (!uncommitted.isEmpty()) {
            throw new IllegalStateException("could not commit the open files of " + uncommitted
                + " on stop (storage or group coordinator unreachable, or the partitions moved to another"
                + " member); their next owner re-reads their records from the last commit");
        }
    }

    /** Asks the loop to commit and stop; returns at once. */
    public void stop() {
        stopping = true;
    }

    /** Records left out of the dataset so far under bad.record.policy skip or dead-letter. */
    public long badRecordCount() {
        return badRecords.count();
    }

    /** The ranges skipped so far under on.missing=skip, because the log no longer had them. */
    public List<LostRange> lostRanges() {
        return List.copyOf(lostRanges);
    }

    /** Waits until {@link #run()} has returned. */
    public boolean awaitStopped(Duration timeout) throws InterruptedException {
        return finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** What {@link #run()} threw, if it has ended with an exception; read it after {@link #awaitStopped}. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    /** The partitions' status as of the last snapshot (taken about once a second). */
    public List<PartitionStatus> status() {
        return status.last();
    }

    /** Where {@code http.listeners} bound (real ports for port 0); empty when the HTTP endpoint is off. */
    public List<java.net.InetSocketAddress> httpAddresses() {
        return monitor.addresses();
    }

    /** A partition's records of one poll, for the files it had when they were polled. */
    private record Claim(PartitionState state, PartitionFiles files, List<ConsumerRecord<byte[], byte[]>> records) {
    }

    private List<Claim> claim(ConsumerRecords<byte[], byte[]> records) {
        List<Claim> claims = new ArrayList<>();
        for (TopicPartition tp : records.partitions()) {
            PartitionState state = partitions.get(tp);
            if (state != null && !state.isRecovering()) {
                claims.add(new Claim(state, state.files(), records.records(tp)));
            }
        }
        return claims;
    }

    // A partition that failed or was recovered since the poll has other files now: its records were
    // polled before the seek back to its last commit, and recovery re-reads them.
    private void startWrites(List<Claim> claims) {
        for (Claim c : claims) {
            if (partitions.get(c.state().partition()) == c.state() && c.state().files() == c.files()) {
                writers.submit(c.state(), c.records());
            }
        }
    }

    /**
     * Waits for the writer threads; commits the partitions whose files filled up and writes the rest
     * of their records, until everything submitted is written. A bad record under the fail policy
     * is kept for {@link #throwIfStopped()}: this also runs inside rebalance callbacks, whose
     * exceptions the consumer would wrap.
     */
    private void finishWrites() {
        while (!writers.isIdle()) {
            List<PartitionState> full = new ArrayList<>();
            List<WriteOutcome> outcomes = writers.await();
            for (WriteOutcome outcome : outcomes) {
                if (outcome.failure() != null) {
                    fail(List.of(outcome.state().partition()), "writing", outcome.failure());
                } else if (outcome.badRecord() != null && stoppedBy == null) {
                    stoppedBy = outcome.badRecord();
                } else if (outcome.full()) {
                    full.add(outcome.state());
                }
            }
            commit(full, "flush.size/file.max.bytes");
            for (WriteOutcome outcome : outcomes) {
                PartitionState state = outcome.state();
                if (outcome.full() && !outcome.remaining().isEmpty() && !state.isRecovering()
                        && partitions.get(state.partition()) == state) {
                    writers.submit(state, outcome.remaining());
                }
            }
        }
    }

    // The partitions' positions are no longer in the log: skip to the log start (recorded in the
    // lost-range report first) or stop, as on.missing says.
    private void skipGaps(Map<TopicPartition, Long> positions) {
        Map<TopicPartition, Long> ours = new LinkedHashMap<>();
        positions.forEach((tp, position) -> {
            PartitionState state = partitions.get(tp);
            if (state != null && !state.isRecovering()) {
                ours.put(tp, position);
            }
        });
        if (ours.isEmpty()) {
            return;
        }
        Map<TopicPartition, LostRange> lost;
        try {
            lost = gaps.meet(ours);
        } catch (IOException | KafkaException e) {
            // Not a MissingRecordsException: the log start or the report could not be had; the retry seeks back and meets the gap again.
            fail(ours.keySet(), "looking up or recording the records the log no longer has", e);
            return;
        }
        long now = time.milliseconds();
        lost.forEach((tp, range) -> {
            PartitionState state = partitions.get(tp);
            state.files().skipTo(range.end(), now);
            state.lost(range.start(), range.end());
            monitor.lost(tp, range.end() - range.start());
            lostRanges.add(range);
            consumer.seek(tp, range.end());
            log.warn("{} were deleted from the log before the sink wrote them; skipped ({}=skip) and recorded in {}",
                range, SinkConfig.ON_MISSING, dataset.layout().metaDir() + "/lost-ranges/");
        });
    }

    private void throwIfStopped() {
        if (stoppedBy != null) {
            throw stoppedBy;
        }
    }

    // Short enough to commit a partition when its rotation timer expires, not up to a poll later.
    private Duration pollTimeout() {
        long now = time.milliseconds();
        long wait = MAX_POLL_MS;
        for (PartitionState state : partitions.values()) {
            if (!state.isRecovering()) {
                wait = Math.min(wait, limits.rotation().dueAtMs(state.files()) - now);
            }
        }
        return Duration.ofMillis(Math.max(0, wait));
    }

    private List<PartitionState> duePartitions(long now) {
        List<PartitionState> due = new ArrayList<>();
        for (PartitionState state : partitions.values()) {
            if (!state.isRecovering() && limits.rotation().isDue(state.files(), now)) {
                due.add(state);
            }
        }
        return due;
    }

    // Commits the partition with the most buffered bytes until all open writers fit the budget.
    private void enforceMemoryBudget() {
        while (true) {
            long total = 0;
            PartitionState largest = null;
            long largestBytes = -1;
            for (PartitionState state : partitions.values()) {
                if (state.isRecovering()) {
                    continue;
                }
                long bytes = state.files().memoryBytes();
                total += bytes;
                if (bytes > largestBytes) {
                    largest = state;
                    largestBytes = bytes;
                }
            }
            if (total <= limits.memoryBudgetBytes() || largest == null || largest.files().isEmpty()) {
                return;
            }
            log.debug("open writers hold {} bytes, over sink.memory.bytes={}: committing {} early",
                total, limits.memoryBudgetBytes(), largest.partition());
            commit(List.of(largest), "sink.memory.bytes");
        }
    }

    /** Commits the non-empty files of {@code states}: close, fence, intent, ledger, rename. */
    private void commit(Collection<PartitionState> states, String reason) {
        long started = time.nanoseconds();
        Map<TopicPartition, CommitIntent> intents = new LinkedHashMap<>();
        Map<TopicPartition, PartitionFiles> committing = new LinkedHashMap<>();
        for (PartitionState state : states) {
            PartitionFiles files = state.files();
            if (files == null || files.isEmpty()) {
                continue;
            }
            try {
                intents.put(state.partition(), files.closeForCommit());
                committing.put(state.partition(), files);
            } catch (IOException e) {
                fail(List.of(state.partition()), "closing", e);
            }
        }
        if (intents.isEmpty()) {
            return;
        }
        try {
            publish(intents, committing, reason);
        } finally {
            monitor.commitTook(time.nanoseconds() - started);
        }
    }

    /** Fences, then publishes the closed files of {@code intents}; see {@link #commit}. */
    private void publish(Map<TopicPartition, CommitIntent> intents, Map<TopicPartition, PartitionFiles> committing, String reason) {
        Map<TopicPartition, Long> nextOffsets = new LinkedHashMap<>();
        intents.forEach((tp, intent) -> nextOffsets.put(tp, intent.nextOffset()));
        try {
            badRecords.flush();
            var owned = fence.confirm(nextOffsets);
            List<TopicPartition> lost = new ArrayList<>(intents.keySet());
            lost.removeAll(owned);
            if (!lost.isEmpty()) {
                fail(lost, "fencing", new IOException("ownership not confirmed by the group coordinator"));
                lost.forEach(intents::remove);
            }
        } catch (KafkaException e) {
            fail(intents.keySet(), "committing offsets to the group", e);
            return;
        }
        CommitProtocol.Outcome outcome;
        try {
            outcome = dataset.protocol().publish(intents);
        } catch (IOException e) {
            fail(intents.keySet(), "publishing", e);
            return;
        }
        long now = time.milliseconds();
        outcome.committed().forEach((tp, version) -> {
            PartitionFiles files = committing.get(tp);
            CommitIntent intent = intents.get(tp);
            long visibleDelay = files.oldestTimestampMs() == Long.MAX_VALUE ? 0 : now - files.oldestTimestampMs();
            partitions.get(tp).committed(files.records(), intent.renames().size(), visibleDelay, intent.nextOffset(), now);
            monitor.committed(tp, files.records(), intent.renames().size(), committedBytes(tp, intent));
            log.debug("committed {} ({}): {} records in {} file(s), ledger at {}", tp, reason,
                files.records(), intent.renames().size(), intent.nextOffset());
            files.committed(version);
        });
        outcome.lost().forEach((tp, moved) -> {
            log.warn("another writer (a loader, or a sink of another group) advanced the ledger of {} from {} while this "
                + "sink wrote offsets up to {}: dropping those files unpublished and resuming at the ledger; run one writer "
                + "per partition at a time", tp, moved, intents.get(tp).nextOffset() - 1);
            partitions.get(tp).replan(now);
        });
        if (!outcome.lost().isEmpty()) {
            consumer.pause(outcome.lost().keySet());
        }
    }

    // Only counted: the commit is done, whatever this says.
    private long committedBytes(TopicPartition tp, CommitIntent intent) {
        try {
            return dataset.protocol().committedBytes(intent);
        } catch (IOException e) {
            log.warn("cannot read the sizes of the files just committed for {}; tributary_sink_bytes_written_total leaves "
                + "them out: {}", tp, describe(e));
            return 0;
        }
    }

    private void fail(Collection<TopicPartition> failed, String step, Exception cause) {
        long now = time.milliseconds();
        List<TopicPartition> paused = new ArrayList<>();
        long retryInMs = 0;
        for (TopicPartition tp : List.copyOf(failed)) {
            PartitionState state = partitions.get(tp);
            if (state != null) {
                state.fail(now, limits.backoff());
                retryInMs = Math.max(retryInMs, state.retryAtMs() - now);
                paused.add(tp);
            }
        }
        if (paused.isEmpty()) {
            return;
        }
        consumer.pause(paused);
        log.warn("{} failed while {}: {}; consumption of them paused, retry in {} ms; nothing is lost, "
            + "each resumes from its last commit", paused, step, describe(cause), retryInMs);
    }

    // Recovers every partition whose retry is due; all of them share one storage, so one batch.
    private void retryFailed() {
        long now = time.milliseconds();
        List<TopicPartition> due = new ArrayList<>();
        partitions.values().stream().filter(s -> s.isRetryDue(now)).forEach(s -> due.add(s.partition()));
        if (due.isEmpty()) {
            return;
        }
        Map<TopicPartition, ResumePoint> resume;
        try {
            resume = dataset.resume().recover(due);
        } catch (TopicRecreatedException e) {
            keepWaiting(due);
            if (stoppedBy == null) { // thrown after the poll: this also runs inside rebalance callbacks
                stoppedBy = MissingRecordsException.recreated(e);
            }
            return;
        } catch (IOException | RuntimeException e) {
            keepWaiting(due);
            long delay = 0;
            for (TopicPartition tp : due) {
                delay = Math.max(delay, partitions.get(tp).retryLater(now, limits.backoff()));
            }
            log.warn("cannot resume {} yet (the dataset storage or the brokers unreachable): {}; still paused, retry in {} ms",
                due, describe(e), delay);
            return;
        }
        Map<TopicPartition, String> starts = new LinkedHashMap<>();
        boolean recovered = false;
        for (TopicPartition tp : due) {
            ResumePoint point = resume.get(tp);
            OptionalLong next = point.position();
            if (next.isPresent()) {
                consumer.seek(tp, next.getAsLong());
            } else {
                consumer.seekToBeginning(List.of(tp));
            }
            PartitionState state = partitions.get(tp);
            recovered |= state.hadFailures();
            state.clearFailures();
            state.start(dataset.newFiles(tp, point));
            starts.put(tp, next.isPresent() ? Long.toString(next.getAsLong()) : "earliest");
        }
        consumer.resume(due);
        log.info("{}writing from offsets {}", recovered ? "storage reachable again: " : "", starts);
    }

    // Paused partitions whose recovery has not seeked yet need a position all the same: one newly assigned
    // has none, and without a committed offset either the next poll fails (auto.offset.reset=none). The log
    // start will do: nothing is fetched while they are paused, and their recovery seeks where they resume.
    private void keepWaiting(List<TopicPartition> partitions) {
        consumer.seekToBeginning(partitions);
    }

    private static String describe(Throwable e) {
        return Optional.ofNullable(e.getMessage()).map(m -> e.getClass().getSimpleName() + ": " + m)
            .orElse(e.getClass().getSimpleName());
    }

    /** Rebalance callbacks; they run inside poll(), on the poll thread. */
    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
            finishWrites();
            List<PartitionState> states = new ArrayList<>();
            revoked.forEach(tp -> Optional.ofNullable(partitions.get(tp)).ifPresent(states::add));
            commit(states, "rebalance");
            for (TopicPartition tp : revoked) {
                PartitionState state = partitions.remove(tp);
                if (state != null && !state.isRecovering()) {
                    state.files().abandon();
                }
            }
            if (!revoked.isEmpty()) {
                log.info("released {}", revoked);
            }
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> lost) {
            finishWrites();
            for (TopicPartition tp : lost) {
                PartitionState state = partitions.remove(tp);
                if (state != null && !state.isRecovering()) {
                    state.files().abandon();
                }
            }
            log.warn("lost {} without a clean hand-over; their open files are left for the new owner to delete", lost);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
            long now = time.milliseconds();
            for (TopicPartition tp : assigned) {
                Optional<String> problem = DatasetTopicName.problem(tp.topic());
                if (problem.isEmpty()) {
                    partitions.put(tp, new PartitionState(tp, now));
                } else if (refusedTopics.add(tp.topic())) {
                    // Matched by topics.regex; a listed topic is refused by SinkConfig before anything starts.
                    log.error("not writing {}: {}", tp.topic(), problem.get());
                }
            }
            consumer.pause(assigned);
            retryFailed();
        }
    }
}
