package io.tributary.consumer.cli;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code tributary elect}: leader elections with the Admin API (ElectLeaders), as {@code kafka-leader-election} runs
 * them. Preferred: the first replica takes over if it is in the ISR. Unclean: a partition without a leader takes any
 * live replica, which may lose records the old ISR had. One line per partition; exit 1 if any failed.
 */
@Command(name = "elect", mixinStandardHelpOptions = true,
        description = "Elect partition leaders: the preferred replica, or (unclean) any live replica of a leaderless partition.")
final class ElectCommand implements java.util.concurrent.Callable<Integer> {
    private static final Comparator<TopicPartition> BY_TOPIC_AND_PARTITION =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    private final CliContext context;

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--type", required = true, paramLabel = "preferred|unclean",
            description = "preferred: move leadership back to the first replica; unclean: elect a replica outside the ISR "
                    + "for a partition that has no leader (records may be lost).")
    String type;

    @ArgGroup(multiplicity = "1")
    Which which;

    /** Which partitions: those named, or every one. */
    static final class Which {
        @Option(names = "--partition", paramLabel = "TOPIC:PARTITION", description = "A partition; repeatable.")
        List<String> partitions;

        @Option(names = "--all-topic-partitions", description = "Every partition of the cluster that needs an election.")
        boolean all;
    }

    ElectCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws InterruptedException {
        ElectionType election = switch (type.toLowerCase(Locale.ROOT)) {
            case "preferred" -> ElectionType.PREFERRED;
            case "unclean" -> ElectionType.UNCLEAN;
            default -> throw new CliException("--type must be preferred or unclean, not '" + type + "'");
        };
        Set<TopicPartition> partitions = which.all ? null
                : which.partitions.stream().map(PartitionSpec::partition).collect(Collectors.toSet());
        Map<TopicPartition, Optional<Throwable>> results = new TreeMap<>(BY_TOPIC_AND_PARTITION);
        try (Admin admin = new KafkaClients(connection, context).admin()) {
            results.putAll(KafkaClients.await(admin.electLeaders(election, partitions).partitions()));
        }
        int failed = 0;
        for (Map.Entry<TopicPartition, Optional<Throwable>> result : results.entrySet()) {
            String partition = PartitionSpec.format(result.getKey());
            Optional<Throwable> error = result.getValue();
            if (error.isEmpty()) {
                context.out().println("Elected a new leader for " + partition + ".");
            } else if (error.get() instanceof ElectionNotNeededException) {
                context.out().println("No election needed for " + partition + ": " + error.get().getMessage());
            } else {
                failed++;
                context.err().println("tributary: " + partition + ": " + CliErrors.describe(error.get(), connection.bootstrapServer()));
            }
        }
        if (results.isEmpty()) {
            context.out().println("No partition needed an election.");
        }
        return failed == 0 ? 0 : TributaryCli.FAILED;
    }
}
