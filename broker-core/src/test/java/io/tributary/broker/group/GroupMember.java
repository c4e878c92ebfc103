package io.tributary.broker.group;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import io.tributary.broker.testing.Clients;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;

/**
 * A kafka-clients consumer in a group, polling on its own thread: it processes each batch (adds
 * it to a {@link ConsumedRecords}), then commits synchronously. A commit refused because a
 * rebalance is completing is retried after the next poll, and whatever is still uncommitted is
 * committed when partitions are revoked, so nothing processed is left uncommitted when partitions
 * move. {@link #close()} leaves the group cleanly; {@link #stopPolling()} just stops calling
 * poll, as a stuck application would.
 */
final class GroupMember implements AutoCloseable {
    private final String name;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final ConsumedRecords consumed;
    private final Set<TopicPartition> assignment = ConcurrentHashMap.newKeySet();
    private final AtomicInteger assignments = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;
    private final CountDownLatch closing = new CountDownLatch(1);
    /** Processed but not yet committed; touched only by the polling thread (the listener runs in poll). */
    private final Map<TopicPartition, OffsetAndMetadata> uncommitted = new HashMap<>();
    private volatile boolean polling = true;

    private GroupMember(String name, KafkaConsumer<byte[], byte[]> consumer, ConsumedRecords consumed) {
        this.name = name;
        this.consumer = consumer;
        this.consumed = consumed;
        this.thread = new Thread(this::run, "group-member-" + name);
    }

    static GroupMember start(String name, String bootstrap, String groupId, String topic, ConsumedRecords consumed,
                             Map<String, Object> overrides) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, name);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 50);
        if (!"consumer".equals(overrides.get(ConsumerConfig.GROUP_PROTOCOL_CONFIG))) {
            // the consumer protocol takes both from the broker (group.consumer.*)
            props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6000);
            props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500);
        }
        props.putAll(overrides);
        GroupMember member = new GroupMember(name, Clients.consumer(bootstrap, props), consumed);
        member.consumer.subscribe(List.of(topic), member.new TrackAssignment());
        member.thread.start();
        return member;
    }

    private void run() {
        try {
            while (closing.getCount() > 0) {
                if (!polling) {
                    closing.await();
                    return;
                }
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    consumed.add(name, new TopicPartition(record.topic(), record.partition()), record.offset());
                }
                uncommitted.putAll(nextOffsets(records));
                try {
                    commitUncommitted();
                } catch (RebalanceInProgressException e) {
                    // the group is completing a rebalance: commit after the next poll or on revocation
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (Throwable e) {
            failure.set(e);
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> nextOffsets(ConsumerRecords<byte[], byte[]> records) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition partition : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> batch = records.records(partition);
            offsets.put(partition, new OffsetAndMetadata(batch.get(batch.size() - 1).offset() + 1));
        }
        return offsets;
    }

    private void commitUncommitted() {
        if (!uncommitted.isEmpty()) {
            consumer.commitSync(uncommitted);
            uncommitted.clear();
        }
    }

    /** Keeps {@link #assignment()} current and commits before partitions go to another member. */
    private final class TrackAssignment implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            commitUncommitted();
            assignment.removeAll(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            assignments.incrementAndGet();
            assignment.addAll(partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            uncommitted.keySet().removeAll(partitions); // no longer ours to commit: their records will come again
            assignment.removeAll(partitions);
        }
    }

    String name() {
        return name;
    }

    Set<TopicPartition> assignment() {
        return Set.copyOf(assignment);
    }

    /** How many rebalances this member has been through (assignments received). */
    int rebalances() {
        return assignments.get();
    }

    /** The error that ended the poll loop, if any. */
    Throwable failure() {
        return failure.get();
    }

    /** Stops calling poll without leaving the group: after max.poll.interval.ms the client gives up its partitions. */
    void stopPolling() {
        polling = false;
    }

    @Override
    public void close() throws InterruptedException {
        closing.countDown();
        thread.join(30_000);
        consumer.close(Duration.ofSeconds(10));
    }
}
