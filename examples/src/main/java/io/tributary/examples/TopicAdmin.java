package io.tributary.examples;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;

/** The few admin calls the examples need, against any Kafka-compatible broker. */
public final class TopicAdmin implements AutoCloseable {
    private final Admin admin;

    public TopicAdmin(String bootstrapServers) {
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }

    /** Creates {@code topic} unless it exists; returns its partition count. */
    public int ensureTopic(String topic, int partitions) throws ExecutionException, InterruptedException {
        try {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
            return partitions;
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
            TopicDescription existing = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            return existing.partitions().size();
        }
    }

    /** The log end offset of each partition of {@code topic}, by partition. */
    public Map<Integer, Long> endOffsets(String topic) throws ExecutionException, InterruptedException {
        TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
        Map<TopicPartition, OffsetSpec> request = description.partitions().stream()
            .collect(Collectors.toMap(p -> new TopicPartition(topic, p.partition()), p -> OffsetSpec.latest()));
        Map<Integer, Long> ends = new TreeMap<>();
        admin.listOffsets(request).all().get().forEach((tp, info) -> ends.put(tp.partition(), info.offset()));
        return ends;
    }

    @Override
    public void close() {
        admin.close();
    }
}
