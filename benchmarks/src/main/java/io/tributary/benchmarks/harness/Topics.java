package io.tributary.benchmarks.harness;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Creates the run's topics up front, identically on both brokers. */
public final class Topics {
    private static final long TIMEOUT_SECONDS = 60;
    private static final long LEADER_POLL_MILLIS = 50;

    private Topics() {
    }

    /** Creates each topic with its partition count and the given replication factor. */
    public static void create(Broker broker, Map<String, Integer> partitionsByTopic, int replicationFactor)
            throws InterruptedException {
        List<NewTopic> topics = partitionsByTopic.entrySet().stream()
                .map(e -> new NewTopic(e.getKey(), e.getValue(), (short) replicationFactor))
                .toList();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            admin.createTopics(topics).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            awaitLeaders(admin, partitionsByTopic.keySet());
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot create topics " + partitionsByTopic.keySet()
                    + " on " + broker.bootstrapServers(), e);
        }
    }

    /**
     * A created topic may not have leaders, or all its replicas in sync, yet; the first produce
     * phase must not pay for the election or run with a short ISR. In a cluster, the broker asked
     * may not even know the topic yet.
     */
    private static void awaitLeaders(Admin admin, Set<String> topics)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (!ledAndInSync(admin, topics)) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("partitions of " + topics + " still without a leader or a full ISR");
            }
            Thread.sleep(LEADER_POLL_MILLIS);
        }
    }

    private static boolean ledAndInSync(Admin admin, Set<String> topics)
            throws InterruptedException, ExecutionException, TimeoutException {
        try {
            return ledAndInSync(admin.describeTopics(topics).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).values());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return false;
            }
            throw e;
        }
    }

    private static boolean ledAndInSync(Collection<TopicDescription> descriptions) {
        return descriptions.stream()
                .flatMap(d -> d.partitions().stream())
                .allMatch(p -> p.leader() != null && !p.leader().isEmpty() && p.isr().size() == p.replicas().size());
    }
}
