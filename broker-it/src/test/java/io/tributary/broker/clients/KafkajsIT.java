package io.tributary.broker.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.testing.ExternalCommand;
import io.tributary.broker.testing.ExternalCommand.Result;
import io.tributary.broker.testing.Records;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * kafkajs (the JavaScript client, from clients/js): an idempotent producer, then a consumer group
 * reading everything back; the Java consumer reads the same records with their headers. kafkajs
 * only reads none and gzip without codec plugins.
 */
class KafkajsIT {
    private static final Path CLIENTS = Path.of("..", "clients", "js").toAbsolutePath().normalize();
    private static final int RECORDS = 1_000;

    private static TestBroker broker;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        assertThat(CLIENTS.resolve("node_modules/kafkajs")).as("run 'npm install' in clients/js (.ci/run does)").exists();
        broker = TestBroker.start(dir);
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "gzip"})
    void producesAndConsumes(String codec) throws Exception {
        String topic = "kafkajs-" + codec;
        Result result = ExternalCommand.run(List.of("node", "kafkajs-roundtrip.mjs", broker.bootstrapServers(), topic,
                Integer.toString(RECORDS), codec), CLIENTS, "", 120);
        assertThat(result.exitCode()).as(result.stderr()).isZero();

        JsonNode summary = new ObjectMapper().readTree(result.stdout());
        assertThat(summary.path("produced").asInt()).isEqualTo(RECORDS / 100);
        assertThat(summary.path("firstOffset").asLong()).isZero();
        List<String> values = new ArrayList<>();
        summary.path("records").forEach(r -> values.add(r.path("value").asText()));
        assertThat(values).hasSize(RECORDS).doesNotHaveDuplicates().contains("value-0", "value-" + (RECORDS - 1));

        List<ConsumerRecord<byte[], byte[]>> read = Records.readAll(broker.bootstrapServers(), topic, Duration.ofSeconds(30));
        assertThat(read).hasSize(RECORDS);
        ConsumerRecord<byte[], byte[]> last = read.get(RECORDS - 1);
        assertThat(new String(last.key(), StandardCharsets.UTF_8)).isEqualTo("key-" + (RECORDS - 1));
        assertThat(new String(last.headers().lastHeader("n").value(), StandardCharsets.UTF_8)).isEqualTo(Integer.toString(RECORDS - 1));
    }
}
