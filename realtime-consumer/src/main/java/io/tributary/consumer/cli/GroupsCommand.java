package io.tributary.consumer.cli;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.stream.Collectors;

/** {@code tributary groups list|describe|reset}. */
@Command(name = "groups", mixinStandardHelpOptions = true, description = "List and describe consumer groups, reset their offsets.",
        synopsisSubcommandLabel = "(list | describe | reset)")
final class GroupsCommand extends ParentCommand {
    private static final Comparator<TopicPartition> BY_TOPIC_AND_PARTITION =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    GroupsCommand(CliContext context) {
        super(context);
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the consumer groups, one per line.")
    int list(@Mixin ConnectionOptions connection) throws InterruptedException {
        try (Admin admin = new KafkaClients(connection, context).admin()) {
            new TreeSet<>(KafkaClients.await(admin.listGroups().all()).stream()
                    .filter(GroupsCommand::isConsumerGroup)
                    .map(GroupListing::groupId).toList())
                    .forEach(context.out()::println);
        }
        return 0;
    }

    @Command(name = "describe", mixinStandardHelpOptions = true, description = "Show committed offset, log end and lag per partition, and the owner.")
    int describe(@Mixin ConnectionOptions connection,
                 @Parameters(paramLabel = "<group>") String group) throws InterruptedException {
        try (Admin admin = new KafkaClients(connection, context).admin()) {
            Map<TopicPartition, OffsetAndMetadata> committed = committed(admin, group);
            Map<TopicPartition, MemberDescription> owners = owners(admin, group);
            if (committed.isEmpty() && owners.isEmpty()) {
                throw new CliException("group " + group + " does not exist (no members and no committed offsets)");
            }
            Set<TopicPartition> partitions = new TreeSet<>(BY_TOPIC_AND_PARTITION);
            partitions.addAll(committed.keySet());
            partitions.addAll(owners.keySet());
            Map<TopicPartition, Long> logEnds = offsets(admin, partitions, partition -> OffsetSpec.latest());
            Table table = new Table("GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG",
                    "CONSUMER-ID", "HOST", "CLIENT-ID");
            for (TopicPartition partition : partitions) {
                OffsetAndMetadata offset = committed.get(partition);
                long logEnd = logEnds.get(partition);
                Optional<MemberDescription> owner = Optional.ofNullable(owners.get(partition));
                table.row(group, partition.topic(), partition.partition(),
                        offset == null ? "-" : offset.offset(), logEnd,
                        offset == null ? "-" : logEnd - offset.offset(),
                        owner.map(MemberDescription::consumerId).orElse("-"),
                        owner.map(MemberDescription::host).orElse("-"),
                        owner.map(MemberDescription::clientId).orElse("-"));
            }
            table.print(context.out());
        }
        return 0;
    }

    static final class ResetTarget {
        @Option(names = "--to-earliest", required = true, description = "The earliest retained offset.")
        boolean toEarliest;

        @Option(names = "--to-latest", required = true, description = "The log end.")
        boolean toLatest;

        @Option(names = "--to-datetime", required = true, paramLabel = "ISO", converter = IsoInstantConverter.class,
                description = "The first offset at or after this time (the log end if none).")
        Instant toDatetime;

        @Option(names = "--shift-by", required = true, paramLabel = "N",
                description = "The committed offset plus N (negative: back), kept within the log.")
        Long shiftBy;
    }

    @Command(name = "reset", mixinStandardHelpOptions = true, description = "Move a group's committed offsets of a topic. A dry run unless --execute.")
    int reset(@Mixin ConnectionOptions connection,
              @Parameters(paramLabel = "<group>") String group,
              @Option(names = "--topic", paramLabel = "T", required = true) String topic,
              @ArgGroup(exclusive = true, multiplicity = "1") ResetTarget target,
              @Option(names = "--execute", description = "Apply the new offsets (default: only show them).")
              boolean execute) throws InterruptedException {
        try (Admin admin = new KafkaClients(connection, context).admin()) {
            List<TopicPartition> partitions = KafkaClients.describeTopic(admin, topic).partitions().stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            Map<TopicPartition, OffsetAndMetadata> committed = committed(admin, group);
            Map<TopicPartition, Long> newOffsets = newOffsets(admin, partitions, committed, target);
            Table table = new Table("GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "NEW-OFFSET");
            newOffsets.forEach((partition, offset) -> table.row(group, topic, partition.partition(),
                    committed.containsKey(partition) ? committed.get(partition).offset() : "-", offset));
            table.print(context.out());
            if (!execute) {
                context.out().println("Dry run: nothing changed. Add --execute to apply these offsets.");
                return 0;
            }
            int members = memberCount(admin, group);
            if (members > 0) {
                throw new CliException("group " + group + " has " + members
                        + " active member(s); stop them before resetting offsets");
            }
            Map<TopicPartition, OffsetAndMetadata> update = new HashMap<>();
            newOffsets.forEach((partition, offset) -> update.put(partition, new OffsetAndMetadata(offset)));
            KafkaClients.await(admin.alterConsumerGroupOffsets(group, update).all());
            context.out().println("Reset the offsets of group " + group + " for topic " + topic + ".");
        }
        return 0;
    }

    private static Map<TopicPartition, Long> newOffsets(Admin admin, List<TopicPartition> partitions,
                                                        Map<TopicPartition, OffsetAndMetadata> committed,
                                                        ResetTarget target) throws InterruptedException {
        if (target.toEarliest) {
            return offsets(admin, partitions, partition -> OffsetSpec.earliest());
        }
        if (target.toLatest) {
            return offsets(admin, partitions, partition -> OffsetSpec.latest());
        }
        Map<TopicPartition, Long> latest = offsets(admin, partitions, partition -> OffsetSpec.latest());
        if (target.toDatetime != null) {
            long millis = target.toDatetime.toEpochMilli();
            Map<TopicPartition, Long> found = offsets(admin, partitions, partition -> OffsetSpec.forTimestamp(millis));
            found.replaceAll((partition, offset) -> offset < 0 ? latest.get(partition) : offset);
            return found;
        }
        Map<TopicPartition, Long> earliest = offsets(admin, partitions, partition -> OffsetSpec.earliest());
        Map<TopicPartition, Long> shifted = new TreeMap<>(BY_TOPIC_AND_PARTITION);
        for (TopicPartition partition : partitions) {
            OffsetAndMetadata current = committed.get(partition);
            if (current == null) {
                throw new CliException("partition " + partition + " has no committed offset to shift from");
            }
            long wanted = current.offset() + target.shiftBy;
            shifted.put(partition, Math.max(earliest.get(partition), Math.min(latest.get(partition), wanted)));
        }
        return shifted;
    }

    private static boolean isConsumerGroup(GroupListing listing) {
        boolean consumerType = listing.type().map(type -> type == GroupType.CONSUMER || type == GroupType.CLASSIC)
                .orElse(true);
        // An empty protocol type is a group that only stores offsets (e.g. after a reset).
        return consumerType && (listing.protocol().isEmpty() || listing.protocol().equals("consumer"));
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(Admin admin, String group)
            throws InterruptedException {
        Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
        KafkaClients.await(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()).forEach((partition, offset) -> {
            if (offset != null) {
                committed.put(partition, offset);
            }
        });
        return committed;
    }

    /** The member owning each assigned partition; empty if the group has no members or does not exist. */
    private static Map<TopicPartition, MemberDescription> owners(Admin admin, String group)
            throws InterruptedException {
        Map<TopicPartition, MemberDescription> owners = new HashMap<>();
        describeGroup(admin, group).ifPresent(description -> description.members().forEach(member ->
                member.assignment().topicPartitions().forEach(partition -> owners.put(partition, member))));
        return owners;
    }

    private static int memberCount(Admin admin, String group) throws InterruptedException {
        return describeGroup(admin, group).map(description -> description.members().size()).orElse(0);
    }

    private static Optional<ConsumerGroupDescription> describeGroup(Admin admin, String group)
            throws InterruptedException {
        try {
            return Optional.of(admin.describeConsumerGroups(List.of(group)).all().get().get(group));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return Optional.empty();
            }
            throw CliErrors.unwrap(e);
        }
    }

    private static Map<TopicPartition, Long> offsets(Admin admin, Iterable<TopicPartition> partitions,
                                                     Function<TopicPartition, OffsetSpec> spec)
            throws InterruptedException {
        Map<TopicPartition, OffsetSpec> query = new HashMap<>();
        partitions.forEach(partition -> query.put(partition, spec.apply(partition)));
        Map<TopicPartition, ListOffsetsResultInfo> answers = KafkaClients.await(admin.listOffsets(query).all());
        return answers.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset(),
                (a, b) -> a, () -> new TreeMap<>(BY_TOPIC_AND_PARTITION)));
    }
}
