package io.tributary.consumer.cli;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** {@code tributary topics create|list|describe|delete|alter}. */
@Command(name = "topics", mixinStandardHelpOptions = true, description = "Create, list, describe, delete and alter topics.",
        synopsisSubcommandLabel = "(create | list | describe | delete | alter)")
final class TopicsCommand extends ParentCommand {
    TopicsCommand(CliContext context) {
        super(context);
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a topic.")
    int create(@Mixin ConnectionOptions connection,
               @Parameters(paramLabel = "<topic>") String topic,
               @Option(names = "--partitions", paramLabel = "N", required = true) int partitions,
               @Option(names = "--replication-factor", paramLabel = "R",
                       description = "Default: the broker's default.replication.factor.") Optional<Short> replication,
               @Option(names = "--config", paramLabel = "k=v", description = "A topic config override; repeatable.")
               Map<String, String> configs) throws InterruptedException {
        if (partitions < 1) {
            throw new CliException("--partitions must be at least 1, got " + partitions);
        }
        NewTopic newTopic = new NewTopic(topic, Optional.of(partitions), replication)
                .configs(configs == null ? Map.of() : configs);
        try (Admin admin = new KafkaClients(connection, context).admin()) {
            KafkaClients.await(admin.createTopics(List.of(newTopic)).all());
        }
        context.out().println("Created topic " + topic + ".");
        return 0;
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the topics, one per line.")
    int list(@Mixin ConnectionOptions connection) throws InterruptedException {
        try (Admin admin = new KafkaClients(connection, context).admin()) {
            new TreeSet<>(KafkaClients.await(admin.listTopics().names())).forEach(context.out()::println);
        }
        return 0;
    }

    @Command(name = "describe", mixinStandardHelpOptions = true, description = "Show a topic's partitions, leaders, replicas and config overrides.")
    int describe(@Mixin ConnectionOptions connection,
                 @Parameters(paramLabel = "<topic>") String topic) throws InterruptedException {
        try (Admin admin = new KafkaClients(connection, context).admin()) {
            TopicDescription description = KafkaClients.describeTopic(admin, topic);
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            Config config = KafkaClients.await(admin.describeConfigs(List.of(resource)).all()).get(resource);
            print(description, overrides(config), context.out());
        }
        return 0;
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a topic.")
    int delete(@Mixin ConnectionOptions connection,
               @Parameters(paramLabel = "<topic>") String topic) throws InterruptedException {
        try (Admin admin = new KafkaClients(connection, context).admin()) {
            KafkaClients.describeTopic(admin, topic);
            KafkaClients.await(admin.deleteTopics(List.of(topic)).all());
        }
        context.out().println("Deleted topic " + topic + ".");
        return 0;
    }

    @Command(name = "alter", mixinStandardHelpOptions = true, description = "Set config overrides of a topic.")
    int alter(@Mixin ConnectionOptions connection,
              @Parameters(paramLabel = "<topic>") String topic,
              @Option(names = "--config", paramLabel = "k=v", required = true,
                      description = "The config to set; repeatable.") Map<String, String> configs)
            throws InterruptedException {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        List<AlterConfigOp> ops = new ArrayList<>();
        configs.forEach((name, value) -> ops.add(new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET)));
        try (Admin admin = new KafkaClients(connection, context).admin()) {
            KafkaClients.describeTopic(admin, topic);
            KafkaClients.await(admin.incrementalAlterConfigs(Map.of(resource, ops)).all());
        }
        context.out().println("Updated topic " + topic + ": " + joined(new TreeMap<>(configs)) + ".");
        return 0;
    }

    private static Map<String, String> overrides(Config config) {
        Map<String, String> overrides = new TreeMap<>();
        for (ConfigEntry entry : config.entries()) {
            if (entry.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG) {
                overrides.put(entry.name(), entry.isSensitive() ? "(sensitive)" : entry.value());
            }
        }
        return overrides;
    }

    private static void print(TopicDescription topic, Map<String, String> configs, PrintWriter out) {
        List<TopicPartitionInfo> partitions = topic.partitions();
        int replicationFactor = partitions.isEmpty() ? 0 : partitions.get(0).replicas().size();
        out.printf("Topic: %s\tTopicId: %s\tPartitionCount: %d\tReplicationFactor: %d\tConfigs: %s%n",
                topic.name(), topic.topicId(), partitions.size(), replicationFactor, joined(configs));
        for (TopicPartitionInfo partition : partitions) {
            out.printf("\tTopic: %s\tPartition: %d\tLeader: %s\tReplicas: %s\tIsr: %s%n", topic.name(),
                    partition.partition(), partition.leader() == null ? "none" : partition.leader().idString(),
                    ids(partition.replicas()), ids(partition.isr()));
        }
    }

    private static String ids(List<Node> nodes) {
        return nodes.stream().map(Node::idString).collect(Collectors.joining(","));
    }

    private static String joined(Map<String, String> configs) {
        return configs.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }
}
