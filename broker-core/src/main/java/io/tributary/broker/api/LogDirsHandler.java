package io.tributary.broker.api;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import io.tributary.broker.replica.ReplicaManager;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.AlterReplicaLogDirsRequestData;
import org.apache.kafka.common.message.AlterReplicaLogDirsResponseData;
import org.apache.kafka.common.message.AlterReplicaLogDirsResponseData.AlterReplicaLogDirPartitionResult;
import org.apache.kafka.common.message.AlterReplicaLogDirsResponseData.AlterReplicaLogDirTopicResult;
import org.apache.kafka.common.message.DescribeLogDirsRequestData;
import org.apache.kafka.common.message.DescribeLogDirsResponseData;
import org.apache.kafka.common.message.DescribeLogDirsResponseData.DescribeLogDirsPartition;
import org.apache.kafka.common.message.DescribeLogDirsResponseData.DescribeLogDirsResult;
import org.apache.kafka.common.message.DescribeLogDirsResponseData.DescribeLogDirsTopic;
import org.apache.kafka.common.protocol.Errors;

/**
 * DescribeLogDirs: each of this broker's {@code log.dirs} with the replicas' logs it holds (their size on disk and how
 * far their end lags: a log behind the high watermark, the future log of a move behind the log it copies) and the
 * volume's total and usable bytes, or KAFKA_STORAGE_ERROR for a dir that is offline. AlterReplicaLogDirs: moves
 * replicas between those dirs ({@link ReplicaManager#alterReplicaLogDir}).
 */
final class LogDirsHandler {
    private final ReplicaManager replicas;

    LogDirsHandler(ReplicaManager replicas) {
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
        replicas.logDirs().forEach(dir -> byDir.put(dir, new LinkedHashMap<>()));
        for (ReplicaManager.ReplicaLog log : replicas.replicaLogs()) {
            TopicPartition tp = log.partition();
            Map<String, DescribeLogDirsTopic> dirTopics = byDir.get(log.logDir());
            if (dirTopics != null && (wanted == null || wanted.contains(tp))) {
                dirTopics.computeIfAbsent(tp.topic(), name -> new DescribeLogDirsTopic().setName(name)).partitions()
                        .add(new DescribeLogDirsPartition()
                                .setPartitionIndex(tp.partition())
                                .setPartitionSize(log.size())
                                .setOffsetLag(log.offsetLag())
                                .setIsFutureKey(log.future()));
            }
        }
        DescribeLogDirsResponseData response = new DescribeLogDirsResponseData();
        byDir.forEach((dir, dirTopics) -> response.results().add(describe(dir, dirTopics)));
        return response;
    }

    private DescribeLogDirsResult describe(Path dir, Map<String, DescribeLogDirsTopic> dirTopics) {
        DescribeLogDirsResult result = new DescribeLogDirsResult().setLogDir(dir.toString());
        if (!replicas.isLogDirOnline(dir)) {
            return result.setErrorCode(Errors.KAFKA_STORAGE_ERROR.code());
        }
        try {
            FileStore store = Files.getFileStore(dir);
            return result.setTotalBytes(store.getTotalSpace()).setUsableBytes(store.getUsableSpace())
                    .setTopics(new ArrayList<>(dirTopics.values()));
        } catch (IOException e) {
            return result.setErrorCode(Errors.KAFKA_STORAGE_ERROR.code());
        }
    }

    /** Each replica named goes to the dir its entry names (the last one, if named twice), as Kafka does. */
    AlterReplicaLogDirsResponseData alter(AlterReplicaLogDirsRequestData request) {
        Map<TopicPartition, String> destinations = new LinkedHashMap<>();
        for (var dir : request.dirs()) {
            for (var topic : dir.topics()) {
                for (int partition : topic.partitions()) {
                    destinations.put(new TopicPartition(topic.name(), partition), dir.path());
                }
            }
        }
        Map<String, AlterReplicaLogDirTopicResult> byTopic = new LinkedHashMap<>();
        destinations.forEach((tp, dir) -> byTopic.computeIfAbsent(tp.topic(), name -> new AlterReplicaLogDirTopicResult()
                        .setTopicName(name)).partitions().add(new AlterReplicaLogDirPartitionResult()
                        .setPartitionIndex(tp.partition())
                        .setErrorCode(replicas.alterReplicaLogDir(tp, dir).code())));
        return new AlterReplicaLogDirsResponseData().setResults(new ArrayList<>(byTopic.values()));
    }
}
