package io.tributary.benchmarks.harness;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A consumer group reads a topic from its beginning: {@link #MEMBERS} consumers, one thread each,
 * subscribe to it in a new group, so the broker's group coordinator does its whole job
 * (FindCoordinator, JoinGroup and SyncGroup as members arrive, Heartbeat, OffsetCommit). Each
 * member commits asynchronously after every poll that returned records, the at-least-once
 * pattern of a real application.
 *
 * <p>The clock starts just before the members subscribe, so joining is timed, and stops once
 * every member holds partitions, has read them to their end and has committed that synchronously
 * ({@link GroupMembers}). Untimed afterwards: the members leave, and the group's committed offsets
 * must equal the topic's end offsets, or the phase fails.
 */
public final class GroupConsumePhase {
    static final int MEMBERS = 3;
    private static final Duration POLL = Duration.ofMillis(20);
    private static final long WAIT_MILLIS = 5;

    private GroupConsumePhase() {
    }

    /**
     * Reads all of {@code topic} (written once, {@code recordBytes} per value) with a new group
     * {@code groupId}; fails if that takes longer than {@code limit}.
     */
    public static PhaseMeasurement read(Broker broker, String topic, int recordBytes, String groupId, Duration limit)
            throws InterruptedException {
        Map<TopicPartition, Long> ends;
        long records;
        List<KafkaConsumer<byte[], byte[]>> consumers = new ArrayList<>();
        try {
            for (int member = 0; member < MEMBERS; member++) {
                consumers.add(new KafkaConsumer<>(ClientSettings.groupConsumer(broker, groupId)));
            }
            List<TopicPartition> partitions = ConsumePhase.partitionsOf(consumers.get(0), topic, limit);
            ends = consumers.get(0).endOffsets(partitions, limit);
            records = ends.values().stream().mapToLong(Long::longValue).sum()
                    - consumers.get(0).beginningOffsets(partitions, limit).values().stream().mapToLong(Long::longValue).sum();
        } catch (RuntimeException e) {
            consumers.forEach(KafkaConsumer::close);
            throw e;
        }

        GroupMembers members = new GroupMembers(MEMBERS);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        double cpuBefore = broker.cpuSeconds();
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        for (int member = 0; member < MEMBERS; member++) {
            Member job = new Member(member, consumers.get(member), topic, ends, members, stop);
            Thread thread = new Thread(() -> {
                try {
                    job.run();
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }, "group-member-" + member);
            thread.start();
            threads.add(thread);
        }
        long elapsed;
        double cpu;
        try {
            while (!members.allFinished() && failure.get() == null) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("group " + groupId + " did not finish reading " + topic + " within " + limit);
                }
                Thread.sleep(WAIT_MILLIS);
            }
            elapsed = System.nanoTime() - start;
            cpu = broker.cpuSeconds() - cpuBefore;
        } finally {
            stop.set(true); // leaving the group is not timed
            consumers.forEach(KafkaConsumer::wakeup);
            for (Thread thread : threads) {
                thread.join();
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a member of group " + groupId + " failed", failure.get());
        }
        checkCommitted(broker, groupId, ends, limit);
        return new PhaseMeasurement(records, records * recordBytes, elapsed, cpu);
    }

    /** The group's committed offsets must be the topic's end offsets: nothing read was left uncommitted. */
    private static void checkCommitted(Broker broker, String groupId, Map<TopicPartition, Long> ends, Duration limit)
            throws InterruptedException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId,
                    new ListConsumerGroupOffsetsOptions()).partitionsToOffsetAndMetadata().get(limit.toMillis(), TimeUnit.MILLISECONDS);
            ends.forEach((partition, end) -> {
                OffsetAndMetadata offset = committed.get(partition);
                if (offset == null || offset.offset() != end) {
                    throw new IllegalStateException("group " + groupId + " committed " + (offset == null ? "nothing" : offset.offset())
                            + " for " + partition + ", whose end offset is " + end);
                }
            });
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the committed offsets of group " + groupId, e);
        }
    }

    /** One member's loop, on its own thread; it closes its consumer (leaving the group) when told to stop. */
    private record Member(int index, KafkaConsumer<byte[], byte[]> consumer, String topic, Map<TopicPartition, Long> ends,
                          GroupMembers members, AtomicBoolean stop) implements ConsumerRebalanceListener {

        void run() {
            try (consumer) {
                consumer.subscribe(List.of(topic), this);
                while (!stop.get()) {
                    ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
                    if (!records.isEmpty()) {
                        consumer.commitAsync();
                    }
                    if (!members.isFinished(index) && readToTheEnd()) {
                        commitFinal();
                    }
                }
            } catch (WakeupException stopping) {
                // told to stop while polling or committing
            }
        }

        private boolean readToTheEnd() {
            Collection<TopicPartition> assigned = consumer.assignment();
            return !assigned.isEmpty() && assigned.stream().allMatch(p -> consumer.position(p) >= ends.get(p));
        }

        /** Commits the member's end positions; a rebalance in between means polling on, and trying again later. */
        private void commitFinal() {
            try {
                consumer.commitSync();
                members.finished(index);
            } catch (RebalanceInProgressException | CommitFailedException rebalancing) {
                members.rebalanced(index);
            }
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            members.rebalanced(index);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            members.rebalanced(index);
        }
    }
}
