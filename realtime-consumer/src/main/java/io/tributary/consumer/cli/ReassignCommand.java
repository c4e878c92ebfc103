package io.tributary.consumer.cli;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code tributary reassign start|list|cancel}: move partitions' replicas between brokers with the Admin API
 * (AlterPartitionReassignments, ListPartitionReassignments), as {@code kafka-reassign-partitions} does: the new
 * replicas are added and catch up, leadership moves to the first of them if the leader is leaving, then the old ones
 * are dropped.
 */
@Command(name = "reassign", mixinStandardHelpOptions = true, description = "Move partitions' replicas between brokers.",
        synopsisSubcommandLabel = "(start | list | cancel)")
final class ReassignCommand extends ParentCommand {
    private static final Comparator<TopicPartition> BY_TOPIC_AND_PARTITION =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);
    private static final long POLL_MS = 500;

    ReassignCommand(CliContext context) {
        super(context);
    }

    @Command(name = "start", mixinStandardHelpOptions = true,
            description = "Start reassigning partitions, e.g. orders:0=2,3,1 (the first replica is the preferred leader).")
    int start(@Mixin ConnectionOptions connection,
              @Parameters(paramLabel = "TOPIC:PARTITION=BROKER,...", arity = "1..*") List<String> specs,
              @Option(names = "--wait", description = "Wait until every one of them is done.") boolean await,
              @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "600",
                      description = "With --wait: give up after this long (default: ${DEFAULT-VALUE}).") long timeoutSeconds)
            throws InterruptedException {
        Map<TopicPartition, Optional<NewPartitionReassignment>> targets = new LinkedHashMap<>();
        for (String spec : specs) {
            PartitionSpec.Target target = PartitionSpec.target(spec);
            targets.put(target.partition(), Optional.of(new NewPartitionReassignment(target.replicas())));
        }
        try (Admin admin = new KafkaClients(connection, context).admin()) {
            KafkaClients.await(admin.alterPartitionReassignments(targets).all());
            targets.keySet().forEach(tp -> context.out().println("Started reassigning " + PartitionSpec.format(tp) + " to "
                    + ids(targets.get(tp).orElseThrow().targetReplicas()) + "."));
            if (await) {
                awaitDone(admin, targets.keySet(), Duration.ofSeconds(timeoutSeconds));
            }
        }
        return 0;
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Show the reassignments in progress.")
    int list(@Mixin ConnectionOptions connection) throws InterruptedException {
        try (Admin admin = new KafkaClients(connection, context).admin()) {
            Map<TopicPartition, PartitionReassignment> ongoing = new TreeMap<>(BY_TOPIC_AND_PARTITION);
            ongoing.putAll(KafkaClients.await(admin.listPartitionReassignments().reassignments()));
            if (ongoing.isEmpty()) {
                context.out().println("No reassignment in progress.");
                return 0;
            }
            Table table = new Table("PARTITION", "REPLICAS", "ADDING", "REMOVING");
            ongoing.forEach((tp, r) -> table.row(PartitionSpec.format(tp), ids(r.replicas()), ids(r.addingReplicas()),
                    ids(r.removingReplicas())));
            table.print(context.out());
        }
        return 0;
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true,
            description = "Cancel reassignments: the partitions keep the replicas they had before.")
    int cancel(@Mixin ConnectionOptions connection,
               @Parameters(paramLabel = "TOPIC:PARTITION", arity = "1..*") List<String> specs) throws InterruptedException {
        Map<TopicPartition, Optional<NewPartitionReassignment>> cancelled = new LinkedHashMap<>();
        specs.forEach(spec -> cancelled.put(PartitionSpec.partition(spec), Optional.empty()));
        try (Admin admin = new KafkaClients(connection, context).admin()) {
            KafkaClients.await(admin.alterPartitionReassignments(cancelled).all());
        }
        cancelled.keySet().forEach(tp -> context.out().println("Cancelled the reassignment of " + PartitionSpec.format(tp) + "."));
        return 0;
    }

    private void awaitDone(Admin admin, Set<TopicPartition> partitions, Duration timeout) throws InterruptedException {
        long deadline = context.time().milliseconds() + timeout.toMillis();
        while (true) {
            Set<TopicPartition> ongoing = KafkaClients.await(admin.listPartitionReassignments(partitions).reassignments()).keySet();
            if (ongoing.isEmpty()) {
                context.out().println("Reassignment complete.");
                return;
            }
            if (context.time().milliseconds() >= deadline) {
                throw new CliException("still reassigning after " + timeout.toSeconds() + " s: "
                        + ongoing.stream().sorted(BY_TOPIC_AND_PARTITION).map(PartitionSpec::format).collect(Collectors.joining(", "))
                        + " (see 'tributary reassign list')");
            }
            context.time().sleep(POLL_MS);
        }
    }

    private static String ids(List<Integer> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
