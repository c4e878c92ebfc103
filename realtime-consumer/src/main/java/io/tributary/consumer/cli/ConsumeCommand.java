package io.tributary.consumer.cli;

import io.tributary.consumer.StartPosition;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code tributary consume <topic>}: prints one line per record until {@code --max-messages} or
 * Ctrl-C. With {@code --group} it joins the group, resumes from its committed offsets and commits
 * what it printed; without, it reads all partitions and commits nothing. The start options apply
 * where there is no committed offset; the default is the end of the log. Committed records only
 * unless {@code --isolation-level read_uncommitted}.
 */
@Command(name = "consume", mixinStandardHelpOptions = true, description = "Print the records of a topic, one line each.")
final class ConsumeCommand implements Callable<Integer> {
    private static final Duration POLL = Duration.ofMillis(200);

    private final CliContext context;

    @Mixin
    ConnectionOptions connection;

    @Parameters(paramLabel = "<topic>")
    String topic;

    @Option(names = "--group", paramLabel = "G", description = "Consumer group to join and commit for.")
    String group;

    @ArgGroup(exclusive = true)
    Start start = new Start();

    static final class Start {
        @Option(names = "--from-beginning", description = "Start at the earliest record.")
        boolean fromBeginning;

        @Option(names = "--from-datetime", paramLabel = "ISO", converter = IsoInstantConverter.class,
                description = "Start at the first record at or after this time, e.g. 2026-11-30T07:30:00Z.")
        Instant fromDatetime;

        StartPosition position() {
            if (fromDatetime != null) {
                return StartPosition.timestamp(fromDatetime);
            }
            return fromBeginning ? StartPosition.earliest() : StartPosition.latest();
        }
    }

    @Option(names = "--max-messages", paramLabel = "N", description = "Exit after N records (default: run until stopped).")
    Long maxMessages;

    /** As kafka-console-consumer's option, but committed records only unless asked: as every Tributary reader. */
    enum Isolation { read_committed, read_uncommitted }

    @Option(names = "--isolation-level", paramLabel = "L", defaultValue = "read_committed",
            description = "read_committed: committed records only, up to the last stable offset; read_uncommitted: "
                    + "every record, aborted ones and those of open transactions too (default: ${DEFAULT-VALUE}).")
    Isolation isolation;

    @Option(names = "--format", paramLabel = "TEMPLATE", defaultValue = RecordFormat.DEFAULT,
            converter = FormatConverter.class,
            description = "Placeholders {key} {value} {topic} {partition} {offset} {timestamp} {headers}; "
                    + "escapes \\t \\n (default: ${DEFAULT-VALUE}).")
    RecordFormat format;

    static final class FormatConverter implements CommandLine.ITypeConverter<RecordFormat> {
        @Override
        public RecordFormat convert(String template) {
            try {
                return RecordFormat.parse(template);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** Offsets after the records printed so far, per partition; committed when in a group. */
    private final Map<TopicPartition, OffsetAndMetadata> toCommit = new HashMap<>();

    ConsumeCommand(CliContext context) {
        this.context = context;
    }

    private long maxMessagesOrMax() {
        return maxMessages == null ? Long.MAX_VALUE : maxMessages;
    }

    @Override
    public Integer call() throws Exception {
        if (maxMessages != null && maxMessages < 1) {
            throw new CliException("--max-messages must be at least 1, got " + maxMessages);
        }
        KafkaClients clients = new KafkaClients(connection, context);
        List<TopicPartition> partitions;
        try (Admin admin = clients.admin()) {
            partitions = KafkaClients.describeTopic(admin, topic).partitions().stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
        }
        Map<String, Object> settings = new HashMap<>();
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, start.position().autoOffsetReset());
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation.name());
        if (group != null) {
            settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        KafkaConsumer<byte[], byte[]> consumer = clients.consumer(settings);
        // Ctrl-C wakes the poll up, then waits until the final commit is done and the group left.
        CountDownLatch finished = new CountDownLatch(1);
        ShutdownHook hook = ShutdownHook.register("tributary-consume-shutdown", () -> {
            consumer.wakeup();
            awaitQuietly(finished);
        });
        try (consumer) {
            if (group != null) {
                consumer.subscribe(List.of(topic), new GroupRebalance(consumer, start.position()));
            } else {
                consumer.assign(partitions);
                start.position().seek(consumer, partitions);
            }
            long printed = printUntilDone(consumer);
            context.err().println("Processed a total of " + printed + " messages");
        } finally {
            finished.countDown();
            hook.close();
        }
        return 0;
    }

    /** Polls and prints until enough records or a wakeup (Ctrl-C); commits what was printed. */
    private long printUntilDone(KafkaConsumer<byte[], byte[]> consumer) {
        StatusLine status = context.stderrIsTerminal() ? new StatusLine(context.err(), context.time()) : null;
        long printed = 0;
        try {
            while (printed < maxMessagesOrMax()) {
                long printedBefore = printed;
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    context.out().println(format.render(record));
                    toCommit.put(new TopicPartition(record.topic(), record.partition()),
                            new OffsetAndMetadata(record.offset() + 1, record.leaderEpoch(), ""));
                    if (++printed == maxMessagesOrMax()) {
                        break;
                    }
                }
                context.out().flush();
                if (status != null) {
                    status.maybeRedraw(printed, totalLag(consumer));
                }
                if (group != null && printed > printedBefore) {
                    consumer.commitAsync(Map.copyOf(toCommit), null);
                }
            }
        } catch (WakeupException stopping) {
            // Ctrl-C: fall through to the final commit.
        } finally {
            if (status != null) {
                status.clear();
            }
            context.out().flush();
            if (group != null && !toCommit.isEmpty()) {
                commitFinal(consumer, toCommit);
            }
        }
        return printed;
    }

    private static void commitFinal(KafkaConsumer<?, ?> consumer, Map<TopicPartition, OffsetAndMetadata> offsets) {
        try {
            consumer.commitSync(offsets);
        } catch (WakeupException pendingWakeup) {
            consumer.commitSync(offsets);
        }
    }

    private static OptionalLong totalLag(KafkaConsumer<?, ?> consumer) {
        long total = 0;
        for (TopicPartition partition : consumer.assignment()) {
            OptionalLong lag = consumer.currentLag(partition);
            if (lag.isEmpty()) {
                return OptionalLong.empty();
            }
            total += lag.getAsLong();
        }
        return OptionalLong.of(total);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Applies a timestamp start to newly assigned partitions without a committed offset, and
     * commits what was printed from partitions before they go to another member.
     */
    private final class GroupRebalance implements ConsumerRebalanceListener {
        private final KafkaConsumer<?, ?> consumer;
        private final StartPosition position;

        GroupRebalance(KafkaConsumer<?, ?> consumer, StartPosition position) {
            this.consumer = consumer;
            this.position = position;
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            position.seekUncommitted(consumer, partitions);
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            Map<TopicPartition, OffsetAndMetadata> revoked = new HashMap<>();
            partitions.forEach(partition -> {
                OffsetAndMetadata offset = toCommit.remove(partition);
                if (offset != null) {
                    revoked.put(partition, offset);
                }
            });
            if (!revoked.isEmpty()) {
                commitFinal(consumer, revoked);
            }
        }
    }
}
