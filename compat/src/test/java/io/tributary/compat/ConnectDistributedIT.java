package io.tributary.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.compat.connect.CountingSourceConnector;
import io.tributary.compat.connect.LinesSinkConnector;
import io.tributary.testkit.FreePorts;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.connect.cli.ConnectDistributed;
import org.apache.kafka.connect.runtime.Connect;
import org.apache.kafka.connect.storage.StringConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Kafka Connect worker in distributed mode (its configs, offsets and statuses in compacted topics, its workers in
 * a group of their own), with a source connector and a sink connector made through the REST API: the source's
 * records go through a topic into the sink's file, each once.
 */
@Timeout(120)
class ConnectDistributedIT {
    private static final int RECORDS = 500;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final CompatBroker broker = new CompatBroker();

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aSourceAndASinkConnectorMoveEveryRecordOnce() throws Exception {
        broker.createTopic("connect-records", 3);
        Path lines = broker.dir().resolve("sink.txt");
        Connect<?> connect = startWorker();
        try {
            String url = connect.rest().advertisedUrl().toString();
            configure(url, "lines-sink", Map.of("connector.class", LinesSinkConnector.class.getName(), "tasks.max", "1",
                    "topics", "connect-records", LinesSinkConnector.FILE, lines.toString()));
            configure(url, "counting-source", Map.of("connector.class", CountingSourceConnector.class.getName(), "tasks.max", "1",
                    CountingSourceConnector.TOPIC, "connect-records", CountingSourceConnector.RECORDS, String.valueOf(RECORDS)));
            for (String connector : List.of("lines-sink", "counting-source")) {
                await().atMost(TIMEOUT).untilAsserted(() -> assertThat(status(url, connector))
                        .as(connector).isEqualTo("RUNNING [RUNNING]"));
            }

            await().atMost(TIMEOUT).until(() -> Files.exists(lines) && Files.readAllLines(lines).size() >= RECORDS);
            assertThat(Files.readAllLines(lines)).as("each record once")
                    .containsExactlyInAnyOrderElementsOf(IntStream.range(0, RECORDS).mapToObj(n -> "record-" + n).toList());
            await().atMost(TIMEOUT).untilAsserted(() -> assertThat(broker.committed("connect-lines-sink"))
                    .isEqualTo(broker.endOffsets("connect-records", 3)));
        } finally {
            connect.stop();
            connect.awaitStop();
        }
    }

    /** A worker with its REST API on a free loopback port; its start ending the JVM on failure becomes an exception. */
    private static Connect<?> startWorker() {
        Map<String, String> settings = new HashMap<>();
        settings.put("bootstrap.servers", broker.bootstrapServers());
        settings.put("group.id", "compat-connect");
        settings.put("listeners", "http://127.0.0.1:" + FreePorts.next());
        settings.put("key.converter", StringConverter.class.getName());
        settings.put("value.converter", StringConverter.class.getName());
        settings.put("config.storage.topic", "connect-configs");
        settings.put("offset.storage.topic", "connect-offsets");
        settings.put("status.storage.topic", "connect-status");
        for (String topic : List.of("config", "offset", "status")) {
            settings.put(topic + ".storage.replication.factor", "1");
        }
        settings.put("offset.storage.partitions", "3");
        settings.put("status.storage.partitions", "1");
        // source offsets and sink commits every half second rather than every minute
        settings.put("offset.flush.interval.ms", "500");
        // plugins come from META-INF/services, without scanning the whole class path
        settings.put("plugin.discovery", "service_load");
        Exit.setExitProcedure((code, message) -> {
            throw new IllegalStateException("Kafka Connect exits with " + code + ": " + message);
        });
        try {
            return new ConnectDistributed().startConnect(settings);
        } finally {
            Exit.resetExitProcedure();
        }
    }

    /** PUT /connectors/{name}/config: creates the connector, once the worker has joined its group and can. */
    private void configure(String url, String name, Map<String, String> config) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url + "connectors/" + name + "/config"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(JSON.valueToTree(config).toString())).build();
        await().atMost(TIMEOUT).untilAsserted(() -> {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isIn(200, 201);
        });
    }

    /** The connector's state and its tasks', as {@code "RUNNING [RUNNING]"}. */
    private String status(String url, String name) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url + "connectors/" + name + "/status")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode status = JSON.readTree(response.body());
        List<String> tasks = new ArrayList<>();
        status.get("tasks").forEach(task -> tasks.add(task.get("state").asText()));
        return status.get("connector").get("state").asText() + " " + tasks;
    }
}
