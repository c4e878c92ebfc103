package io.tributary.compat;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.tools.*;
import org.apache.kafka.tools.consumer.group.ConsumerGroupCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.*;
import java.time.Duration;
import java.util.*;
import java.util.stream.Stream;

class ScratchIT {
    @RegisterExtension
    static final CompatBroker broker = new CompatBroker();
    static StringBuilder log = new StringBuilder();

    static void run(Class<?> c, String... args) throws Exception {
        String[] full = Stream.concat(Stream.of("--bootstrap-server", broker.bootstrapServers()), Stream.of(args)).toArray(String[]::new);
        KafkaCommand.Result r = KafkaCommand.run(c, full);
        log.append("\n### ").append(c.getSimpleName()).append(' ').append(String.join(" ", args)).append("\nexit ").append(r.exitCode())
           .append("\n--out\n").append(r.out()).append("--err\n").append(r.err());
    }

    @Test
    void dump() throws Exception {
        broker.createTopic("t", 2);
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < 20; i++) records.add(new ProducerRecord<>("t", i % 2, "k" + i, "v" + i));
        broker.produce(records);
        String id = broker.admin().describeCluster().nodes().get().iterator().next().idString();
        run(TopicCommand.class, "--describe", "--topic", "t");
        run(TopicCommand.class, "--describe", "--topic", "t", "--under-replicated-partitions");
        run(TopicCommand.class, "--describe", "--unavailable-partitions");
        run(TopicCommand.class, "--describe", "--at-min-isr-partitions");
        run(TopicCommand.class, "--list", "--exclude-internal");
        run(TopicCommand.class, "--describe", "--topic", "nope");
        run(TopicCommand.class, "--create", "--topic", "bad", "--partitions", "1", "--config", "bogus=1");
        run(TopicCommand.class, "--create", "--topic", "bad", "--partitions", "1", "--config", "retention.ms=abc");
        run(TopicCommand.class, "--create", "--topic", "bad", "--partitions", "1", "--replication-factor", "3");
        run(TopicCommand.class, "--alter", "--topic", "t", "--partitions", "1");
        run(ConfigCommand.class, "--entity-type", "topics", "--entity-name", "t", "--describe", "--all");
        run(ConfigCommand.class, "--entity-type", "brokers", "--entity-name", id, "--describe");
        run(ConfigCommand.class, "--entity-type", "brokers", "--entity-default", "--describe");
        run(ConfigCommand.class, "--entity-type", "brokers", "--entity-name", id, "--alter", "--add-config", "log.dirs=/tmp/x");
        run(ConfigCommand.class, "--entity-type", "brokers", "--entity-default", "--alter", "--add-config", "message.max.bytes=2097152");
        run(ConfigCommand.class, "--entity-type", "brokers", "--entity-default", "--describe");
        run(ConfigCommand.class, "--entity-type", "topics", "--entity-name", "t", "--describe");
        run(ConfigCommand.class, "--entity-type", "topics", "--entity-name", "t", "--alter", "--add-config", "retention.ms=abc");
        run(ConfigCommand.class, "--entity-type", "topics", "--entity-name", "nope", "--alter", "--add-config", "retention.ms=1");
        run(ConfigCommand.class, "--entity-type", "topics", "--describe");
        run(ConfigCommand.class, "--entity-type", "groups", "--entity-name", "g", "--describe", "--all");
        run(ConfigCommand.class, "--entity-type", "groups", "--entity-name", "g", "--alter", "--add-config", "consumer.session.timeout.ms=1");
        run(ConfigCommand.class, "--entity-type", "client-metrics", "--describe");
        run(ConfigCommand.class, "--entity-type", "users", "--describe");
        run(ConfigCommand.class, "--entity-type", "clients", "--entity-name", "c1", "--alter", "--add-config", "producer_byte_rate=1024");
        run(ConfigCommand.class, "--entity-type", "clients", "--describe");
        run(ConfigCommand.class, "--entity-type", "broker-loggers", "--entity-name", id, "--describe");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "modern", ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer",
                ConsumerConfig.CLIENT_ID_CONFIG, "modern-client",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class))) {
            consumer.subscribe(List.of("t"));
            int n = 0; long end = System.currentTimeMillis() + 30000;
            while (n < 20 && System.currentTimeMillis() < end) n += consumer.poll(Duration.ofMillis(100)).count();
            consumer.commitSync();
            run(ConsumerGroupCommand.class, "--describe", "--group", "modern");
            run(ConsumerGroupCommand.class, "--describe", "--group", "modern", "--members", "--verbose");
            run(ConsumerGroupCommand.class, "--describe", "--group", "modern", "--state", "--verbose");
            run(ConsumerGroupCommand.class, "--describe", "--group", "modern", "--offsets", "--verbose");
            run(ConsumerGroupCommand.class, "--list", "--type");
            run(ConsumerGroupCommand.class, "--list", "--state");
            run(ConsumerGroupCommand.class, "--delete", "--group", "modern");
            run(ConsumerGroupCommand.class, "--reset-offsets", "--group", "modern", "--all-topics", "--to-earliest", "--dry-run");
        }
        run(ConsumerGroupCommand.class, "--describe", "--group", "modern", "--state");
        run(ConsumerGroupCommand.class, "--describe", "--group", "nope");
        run(ConsumerGroupCommand.class, "--describe", "--all-groups");
        run(ConsumerGroupCommand.class, "--reset-offsets", "--group", "modern", "--all-topics", "--to-datetime", "2020-01-01T00:00:00.000", "--execute");
        run(ConsumerGroupCommand.class, "--reset-offsets", "--group", "modern", "--topic", "t", "--by-duration", "PT1H", "--execute");
        run(ConsumerGroupCommand.class, "--reset-offsets", "--group", "modern", "--topic", "t", "--to-latest", "--export", "--dry-run");
        run(ConsumerGroupCommand.class, "--delete", "--group", "modern");
        run(ConsumerGroupCommand.class, "--delete", "--group", "nope");
        run(GetOffsetShell.class, "--topic", "t", "--time", "-5");
        run(GetOffsetShell.class, "--topic", "t", "--time", "-4");
        run(GetOffsetShell.class, "--topic", "t", "--time", "-3");
        run(GetOffsetShell.class, "--topic", "nope");
        run(GetOffsetShell.class, "--topic-partitions", "__consumer_offsets:0", "--time", "-1");
        run(GetOffsetShell.class, "--exclude-internal-topics");
        run(FeatureCommand.class, "version-mapping");
        run(FeatureCommand.class, "upgrade", "--feature", "share.version=1", "--dry-run");
        Path plan = Files.writeString(broker.dir().resolve("d.json"), "{\"version\":1,\"partitions\":[{\"topic\":\"nope\",\"partition\":0,\"offset\":1},{\"topic\":\"t\",\"partition\":5,\"offset\":1}]}");
        run(DeleteRecordsCommand.class, "--offset-json-file", plan.toString());
        run(TopicCommand.class, "--delete", "--topic", "nope");
        Path out = Path.of("target", "scratch-" + broker.kind() + ".txt");
        Files.writeString(out, log.toString().replaceAll("127\\.0\\.0\\.1:\\d+", "HOST:PORT"));
    }
}
