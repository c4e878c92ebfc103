package io.tributary.compat;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Kafka Streams application at at_least_once: it re-keys lines by word, which goes through a repartition topic,
 * and counts each word in a store with a changelog topic. Every count is emitted once (no cache), so the output is
 * exact: for each word, the counts 1, 2, ... n in order, n the word's occurrences in the input.
 */
@Timeout(120)
class StreamsIT {
    private static final List<String> WORDS = List.of("alder", "birch", "cedar", "dogwood", "elm", "fir", "ginkgo");
    private static final int LINES = 300;

    @RegisterExtension
    static final CompatBroker broker = new CompatBroker();

    @Test
    void countsWordsThroughARepartitionTopicExactly() throws Exception {
        broker.createTopic("lines", 3);
        broker.createTopic("word-counts", 2);
        List<ProducerRecord<String, String>> lines = new ArrayList<>();
        Map<String, Long> occurrences = new TreeMap<>();
        for (int i = 0; i < LINES; i++) {
            String word = WORDS.get(i * i % WORDS.size());
            lines.add(new ProducerRecord<>("lines", "line-" + i, word));
            occurrences.merge(word, 1L, Long::sum);
        }
        broker.produce(lines);

        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("lines", Consumed.with(Serdes.String(), Serdes.String()))
                .selectKey((line, word) -> word)
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long>as(Stores.inMemoryKeyValueStore("counts"))
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
                .toStream()
                .to("word-counts", Produced.with(Serdes.String(), Serdes.Long()));
        try (KafkaStreams streams = new KafkaStreams(builder.build(), settings())) {
            streams.start();
            Map<String, List<Long>> counts = readCounts(LINES);
            Map<String, List<Long>> expected = new TreeMap<>();
            occurrences.forEach((word, n) -> expected.put(word, LongStream.rangeClosed(1, n).boxed().toList()));
            assertThat(counts).isEqualTo(expected);
            streams.close(Duration.ofSeconds(30));
        }
        assertThat(broker.admin().listTopics().names().get())
                .contains("word-count-counts-repartition", "word-count-counts-changelog");
    }

    private static Properties settings() {
        Properties settings = new Properties();
        settings.put(StreamsConfig.APPLICATION_ID_CONFIG, "word-count");
        settings.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        settings.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        settings.put(StreamsConfig.STATE_DIR_CONFIG, broker.dir().resolve("streams").toString());
        // every update goes out at once, so each count is in the output
        settings.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        settings.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        settings.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        return settings;
    }

    /** Reads {@code count} records of word-counts from the start: each word's counts in the order emitted. */
    private static Map<String, List<Long>> readCounts(int count) {
        Map<String, List<Long>> counts = new TreeMap<>();
        try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, LongDeserializer.class))) {
            consumer.assign(List.of(new TopicPartition("word-counts", 0), new TopicPartition("word-counts", 1)));
            int[] read = {0};
            await().atMost(Duration.ofSeconds(90)).until(() -> {
                for (ConsumerRecord<String, Long> record : consumer.poll(Duration.ofMillis(200))) {
                    counts.computeIfAbsent(record.key(), word -> new ArrayList<>()).add(record.value());
                    read[0]++;
                }
                return read[0] >= count;
            });
        }
        return counts;
    }
}
