package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.LostRange;
import io.tributary.hadoop.dataset.MissingPolicy;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicAuthorizationException;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

/**
 * Plans a load: for each partition of a topic, {@code [start, end)} from the start position to
 * the last stable offset now under {@code read_committed} (the high watermark under
 * {@code read_uncommitted}). A transaction still open holds the last stable offset at its first
 * offset: the plan notes the log end beyond it, and the next load takes the rest. A start below
 * the log start offset means retention already deleted records: with {@link MissingPolicy#FAIL}
 * planning stops there, naming the lost range; with {@link MissingPolicy#SKIP} the range is kept
 * and the reader reports what it could not read. Offsets need not be dense (transaction markers,
 * aborted records, compaction): a range is bounded by offsets, never counted in records. With
 * tiered storage, the part of each range below what tiered storage holds ({@code tieredEnds}) is
 * marked to be read from there. Brokers that do not answer are a {@link BrokersUnreachableException}.
 */
public final class RangePlanner {
    /** Where the dataset says each partition resumes. */
    public interface LedgerLookup {
        /**
         * @param topicId the topic's id as the brokers know it, empty if unknown (planned without them):
         *     a dataset of an earlier topic of that name is refused ({@link io.tributary.hadoop.dataset.TopicIdentity})
         */
        Map<Integer, Long> resumeOffsets(Optional<String> topicId) throws IOException;
    }

    private final Admin admin;
    private final LedgerLookup ledger;
    private final IsolationLevel isolation;
    private final Map<Integer, Long> tieredEnds;

    public RangePlanner(Admin admin, LedgerLookup ledger, IsolationLevel isolation) {
        this(admin, ledger, isolation, Map.of());
    }

    /** @param tieredEnds per partition, the offset after the last one tiered storage holds */
    public RangePlanner(Admin admin, LedgerLookup ledger, IsolationLevel isolation, Map<Integer, Long> tieredEnds) {
        this.admin = admin;
        this.ledger = ledger;
        this.isolation = isolation;
        this.tieredEnds = tieredEnds;
    }

    public LoadPlan plan(String topic, StartPosition startPosition, MissingPolicy onMissing) throws IOException {
        TopicDescription description = await(admin.describeTopics(List.of(topic)).allTopicNames(), topic).get(topic);
        Map<Integer, String> leaders = new TreeMap<>();
        for (TopicPartitionInfo p : description.partitions()) {
            Node leader = p.leader();
            leaders.put(p.partition(), leader == null || leader.isEmpty() ? "" : leader.host());
        }
        Offsets offsets = new Offsets(topic, leaders.keySet().stream().toList(),
            Uuid.ZERO_UUID.equals(description.topicId()) ? Optional.empty() : Optional.of(description.topicId().toString()));
        Map<Integer, Long> starts = startPosition.resolve(offsets);
        Map<Integer, Long> earliest = offsets.earliest();
        Map<Integer, Long> latest = offsets.latest();
        Map<Integer, Long> logEnds = offsets.logEnds();

        List<LoadPlan.Partition> partitions = new ArrayList<>();
        for (Map.Entry<Integer, Long> s : starts.entrySet()) {
            int partition = s.getKey();
            long start = s.getValue();
            Long end = latest.get(partition);
            if (end == null) {
                throw new IllegalArgumentException(topic + " has no partition " + partition + " (it has " + leaders.size() + ")");
            }
            if (start > end) {
                // E.g. a dataset loaded read_uncommitted earlier, or a group's offsets committed by such a consumer.
                String why = start <= logEnds.get(partition)
                    ? ", where a transaction is still open (log end " + logEnds.get(partition) + "); load again once it has ended, "
                        + "or read with " + InputConfig.CONSUMER_PREFIX + "isolation.level=read_uncommitted"
                    : " (was the topic deleted and recreated?)";
                throw new IllegalArgumentException("start offset " + start + " of " + topic + "-" + partition
                    + " is beyond its end " + end + why);
            }
            long first = earliest.get(partition);
            if (start < first && onMissing == MissingPolicy.FAIL) {
                throw new LostRangeException(new LostRange(topic, partition, start, Math.min(first, end)));
            }
            // The log end is read after the stable end: an append in between can only put it further ahead.
            long logEnd = Math.max(end, logEnds.get(partition));
            long tieredEnd = Math.max(start, Math.min(end, tieredEnds.getOrDefault(partition, start)));
            partitions.add(new LoadPlan.Partition(new OffsetRange(partition, start, end), leaders.get(partition), 0, logEnd, tieredEnd));
        }
        return new LoadPlan(topic, partitions);
    }

    /** Offset look-ups for one topic, answered by the admin client. */
    private final class Offsets implements StartPosition.PartitionOffsets {
        private final String topic;
        private final List<Integer> partitions;
        private final Optional<String> topicId;
        private Map<Integer, Long> earliest;
        private Map<Integer, Long> latest;
        private Map<Integer, Long> logEnds;

        Offsets(String topic, List<Integer> partitions, Optional<String> topicId) {
            this.topic = topic;
            this.partitions = partitions;
            this.topicId = topicId;
        }

        @Override
        public Map<Integer, Long> earliest() {
            if (earliest == null) {
                earliest = list(p -> OffsetSpec.earliest());
            }
            return earliest;
        }

        @Override
        public Map<Integer, Long> latest() {
            if (latest == null) {
                latest = list(p -> OffsetSpec.latest());
            }
            return latest;
        }

        /** The high watermarks: {@link #latest()} itself unless reading {@code read_committed}. */
        Map<Integer, Long> logEnds() {
            if (logEnds == null) {
                logEnds = isolation == IsolationLevel.READ_UNCOMMITTED ? latest()
                    : list(p -> OffsetSpec.latest(), IsolationLevel.READ_UNCOMMITTED);
            }
            return logEnds;
        }

        @Override
        public Map<Integer, Long> committed(String groupId) throws IOException {
            Map<TopicPartition, OffsetAndMetadata> committed =
                await(admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata(), topic);
            Map<Integer, Long> offsets = new TreeMap<>();
            committed.forEach((tp, om) -> {
                if (tp.topic().equals(topic) && om != null) {
                    offsets.put(tp.partition(), om.offset());
                }
            });
            return offsets;
        }

        @Override
        public Map<Integer, Long> forTimestamp(long timestampMs) {
            Map<Integer, Long> found = list(p -> OffsetSpec.forTimestamp(timestampMs));
            Map<Integer, Long> offsets = new TreeMap<>(latest());
            found.forEach((p, o) -> {
                if (o >= 0) {
                    offsets.put(p, o);
                }
            });
            return offsets;
        }

        @Override
        public Map<Integer, Long> ledger() throws IOException {
            return ledger.resumeOffsets(topicId);
        }

        private Map<Integer, Long> list(Function<Integer, OffsetSpec> spec) {
            return list(spec, isolation);
        }

        private Map<Integer, Long> list(Function<Integer, OffsetSpec> spec, IsolationLevel level) {
            Map<TopicPartition, OffsetSpec> request = new TreeMap<>(java.util.Comparator.comparingInt(TopicPartition::partition));
            partitions.forEach(p -> request.put(new TopicPartition(topic, p), spec.apply(p)));
            try {
                Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result =
                    await(admin.listOffsets(request, new ListOffsetsOptions(level)).all(), topic);
                Map<Integer, Long> offsets = new TreeMap<>();
                result.forEach((tp, info) -> offsets.put(tp.partition(), info.offset()));
                return offsets;
            } catch (IOException e) {
                throw new IllegalStateException("listing offsets of " + topic + " failed: " + e.getMessage(), e);
            }
        }
    }

    /** The future's value; its failure as an IOException whose message names what went wrong with {@code topic}. */
    private static <T> T await(KafkaFuture<T> future, String topic) throws IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while planning");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
                throw new BrokersUnreachableException(describe(e.getCause(), topic), e.getCause());
            }
            throw new IOException(describe(e.getCause(), topic), e.getCause());
        }
    }

    /** The failure's message; for ACLs that refuse the topic, which topic and what the user needs. */
    private static String describe(Throwable failure, String topic) {
        if (failure instanceof TopicAuthorizationException denied) {
            return "not authorized to access topics: " + (denied.unauthorizedTopics().isEmpty() ? List.of(topic)
                : new TreeSet<>(denied.unauthorizedTopics())) + " (the loader's user needs DESCRIBE and READ on them)";
        }
        return failure.getMessage();
    }
}
