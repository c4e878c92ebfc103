package io.tributary.sink;

import io.tributary.hadoop.dataset.LedgerVersion;
import io.tributary.hadoop.dataset.NewestCommittedFiles;
import io.tributary.hadoop.dataset.TopicRecreatedException;
import org.apache.kafka.common.TopicPartition;

import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where assigned partitions resume: for each, first finish whatever an earlier writer left
 * half done (a sink's commit of the partition, a loader's of the topic), then take the
 * ledger's next offset cross-checked with the newest committed file names (a bounded look at
 * the newest buckets, never a walk of the whole tree), once the dataset's offsets are known to
 * be those of the topic the brokers have now. Empty for a partition the dataset has never seen.
 */
final class ResumePositions {
    private final CommitProtocol protocol;
    private final NewestCommittedFiles newestFiles;
    private final TopicIds topicIds;

    ResumePositions(CommitProtocol protocol, NewestCommittedFiles newestFiles, TopicIds topicIds) {
        this.protocol = protocol;
        this.newestFiles = newestFiles;
        this.topicIds = topicIds;
    }

    /**
     * @throws TopicRecreatedException if a topic's dataset holds the offsets of an earlier topic of
     *     its name: resuming at them would skip the new topic's records below them
     */
    Map<TopicPartition, ResumePoint> recover(Collection<TopicPartition> partitions) throws IOException {
        Map<String, Set<Integer>> byTopic = new TreeMap<>();
        for (TopicPartition tp : partitions) {
            byTopic.computeIfAbsent(tp.topic(), t -> new TreeSet<>()).add(tp.partition());
        }
        Map<String, String> ids = topicIds.of(byTopic.keySet());
        Map<TopicPartition, ResumePoint> resume = new HashMap<>();
        for (Map.Entry<String, Set<Integer>> e : byTopic.entrySet()) {
            String topic = e.getKey();
            for (int p : e.getValue()) {
                protocol.finishInterrupted(new TopicPartition(topic, p));
            }
            protocol.finishInterruptedLoads(topic);
            LedgerVersion ledger = protocol.ledger(topic).readVersion();
            if (ids.containsKey(topic)) {
                protocol.checkTopicId(topic, ids.get(topic), ledger.state());
            }
            Map<Integer, Long> offsets = ledger.state().resumeOffsets(newestFiles.lastOffsets(topic));
            for (int p : e.getValue()) {
                Long next = offsets.get(p);
                resume.put(new TopicPartition(topic, p), new ResumePoint(
                    next == null ? OptionalLong.empty() : OptionalLong.of(next), ledger.number(), ledger.state().nextOffset(p)));
            }
        }
        return resume;
    }
}
