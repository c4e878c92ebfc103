package io.tributary.broker.api;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.HashSet;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.replica.ReplicaManager;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.DescribeLogDirsRequestData;
import org.apache.kafka.common.message.DescribeLogDirsResponseData;
import org.apache.kafka.common.message.DescribeLogDirsResponseData.DescribeLogDirsPartition;
import org.apache.kafka.common.message.DescribeLogDirsResponseData.DescribeLogDirsResult;
import org.apache.kafka.common.message.DescribeLogDirsResponseData.DescribeLogDirsTopic;
import org.apache.kafka.common.protocol.Errors;

/**
 * DescribeLogDirs: each of this broker's {@code log.dirs} with the replicas it holds (their size on disk and how far
 * their log end is behind the high watermark), and the volume's total and usable bytes.
 */
final class LogDirsHandler {
    private final TopicManager topics;
    private final ReplicaManager replicas;

    LogDirsHandler(TopicManager topics, ReplicaManager replicas) {
        this.topics = topics;
        this.replicas = replicas;
    }

    DescribeLogDirsResponseData describe(DescribeLogDirsRequestData request) {
        Set<TopicPartition> wanted = null;
        if (request.topics() != null) {
            wanted = new HashSet<>();
            for (var topic : request.topics()) {
                for (int partition : topic.partitions()) {
                    wanted.add(new TopicPartition(topic.topic(), partition));
                }
            }
        }
        Map<Path, Map<String, DescribeLogDirsTopic>> byDir = new LinkedHashMap<>();
        topics.logDirs().forEach(dir -> byDir.put(dir, new LinkedHashMap<>()));
        for (TopicManager.TopicState topic : topics.topics()) {
            for (int partition : topic.assignment().replicas().keySet()) {
                TopicPartition tp = new TopicPartition(topic.name(), partition);
                if (wanted != null && !wanted.contains(tp)) {
                    continue;
                }
                var log = topics.log(tp);
                var dir = topics.logDirOf(tp);
                if (log.isEmpty() || dir.isEmpty() || !byDir.containsKey(dir.get())) {
                    continue;
                }
                byDir.get(dir.get()).computeIfAbsent(tp.topic(), name -> new DescribeLogDirsTopic().setName(name))
                        .partitions().add(partition(tp, log.get()));
            }
        }
        DescribeLogDirsResponseData response = new DescribeLogDirsResponseData();
        byDir.forEach((dir, dirTopics) -> {
            DescribeLogDirsResult result = new DescribeLogDirsResult().setLogDir(dir.toString())
                    .setTopics(new java.util.ArrayList<>(dirTopics.values()));
            try {
                FileStore store = Files.getFileStore(dir);
                result.setTotalBytes(store.getTotalSpace()).setUsableBytes(store.getUsableSpace());
            } catch (IOException e) {
                result.setErrorCode(Errors.KAFKA_STORAGE_ERROR.code());
            }
            response.results().add(result);
        });
        return response;
    }

    private DescribeLogDirsPartition partition(TopicPartition tp, PartitionLog log) {
        return new DescribeLogDirsPartition()
                .setPartitionIndex(tp.partition())
                .setPartitionSize(log.size())
                .setOffsetLag(replicas.logEndOffsetLag(tp))
                .setIsFutureKey(false);
    }
}
