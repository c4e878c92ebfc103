package io.tributary.broker.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.ExternalCommand;
import io.tributary.broker.testing.ExternalCommand.Result;
import io.tributary.broker.testing.Records;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** kcat (librdkafka, the C client): metadata, and produce/consume in every compression codec. */
class KcatIT {
    private static final int RECORDS = 500;

    private static TestBroker broker;
    private static Path workDir;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir);
        workDir = dir;
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static Result kcat(String stdin, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("kcat", "-b", broker.bootstrapServers()));
        command.addAll(List.of(args));
        Result result = ExternalCommand.run(command, workDir, stdin, 30);
        assertThat(result.exitCode()).as("kcat %s: %s", String.join(" ", args), result.stderr()).isZero();
        return result;
    }

    @Test
    void listsMetadata() throws Exception {
        kcat("one\n", "-P", "-t", "listed");
        JsonNode metadata = new ObjectMapper().readTree(kcat("", "-L", "-J").stdout());
        assertThat(metadata.path("brokers")).singleElement()
                .satisfies(b -> assertThat(b.path("id").asInt()).isZero());
        assertThat(metadata.path("topics").findValuesAsText("topic")).contains("listed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "gzip", "snappy", "lz4", "zstd"})
    void producesAndConsumesWithCompression(String codec) throws Exception {
        String topic = "kcat-" + codec;
        String lines = IntStream.range(0, RECORDS).mapToObj(i -> "key-" + i + ":value-" + i + "-" + "x".repeat(i % 50))
                .collect(Collectors.joining("\n", "", "\n"));
        kcat(lines, "-P", "-t", topic, "-K", ":", "-z", codec, "-X", "enable.idempotence=true", "-X", "linger.ms=20");

        String consumed = kcat("", "-C", "-t", topic, "-o", "beginning", "-e", "-q", "-f", "%k:%s\\n").stdout();
        assertThat(consumed).isEqualTo(lines);

        // The Java consumer reads what librdkafka compressed, byte for byte.
        List<ConsumerRecord<byte[], byte[]>> read = Records.readAll(broker.bootstrapServers(), topic, Duration.ofSeconds(30));
        assertThat(read).hasSize(RECORDS);
        assertThat(new String(read.get(7).key(), StandardCharsets.UTF_8)).isEqualTo("key-7");
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "snappy", "lz4", "zstd"})
    void consumesWhatTheJavaProducerCompressed(String codec) throws Exception {
        String topic = "java-" + codec;
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(),
                Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec, ProducerConfig.LINGER_MS_CONFIG, 20))) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(topic, ("k" + i).getBytes(StandardCharsets.UTF_8), ("v" + i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
        String consumed = kcat("", "-C", "-t", topic, "-o", "beginning", "-e", "-q", "-f", "%k=%s\\n").stdout();
        assertThat(consumed.lines()).hasSize(RECORDS).startsWith("k0=v0").endsWith("k" + (RECORDS - 1) + "=v" + (RECORDS - 1));
    }
}
