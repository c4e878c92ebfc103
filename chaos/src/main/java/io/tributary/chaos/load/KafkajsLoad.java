package io.tributary.chaos.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * kafkajs' idempotent acks=all producer, one request in flight, as the user ran it:
 * {@code clients/js/kafkajs-chaos.mjs} in node, its events read from its output into the
 * {@link AckLog}. It runs in this JVM's network (the clients' machine).
 */
public final class KafkajsLoad implements Load {
    private static final String SOURCE = "kafkajs";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<String> command;
    private final Path clients;
    private final Path errorLog;
    private final AckLog ackLog;
    private Process process;
    private Thread reader;
    private Thread cleanUpOnExit;

    /** @param clients the directory holding kafkajs-chaos.mjs and node_modules/kafkajs */
    public KafkajsLoad(Path clients, String bootstrap, String topic, int partitions, AckLog ackLog, Path errorLog) {
        if (!Files.isDirectory(clients.resolve("node_modules/kafkajs"))) {
            throw new IllegalStateException("kafkajs is not installed: run 'npm install' in " + clients);
        }
        this.clients = clients;
        this.command = List.of("node", "kafkajs-chaos.mjs", bootstrap, topic, Integer.toString(partitions));
        this.ackLog = ackLog;
        this.errorLog = errorLog;
    }

    @Override
    public void start() {
        try {
            process = new ProcessBuilder(command).directory(clients.toFile())
                    .redirectError(ProcessBuilder.Redirect.appendTo(errorLog.toFile())).start();
            cleanUpOnExit = new Thread(process::destroyForcibly, "kafkajs-clean-up");
            Runtime.getRuntime().addShutdownHook(cleanUpOnExit);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start node", e);
        }
        reader = new Thread(this::readEvents, "chaos-kafkajs-events");
        reader.start();
    }

    private void readEvents() {
        List<String> pending = new ArrayList<>();
        try (BufferedReader events = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = events.readLine()) != null) {
                JsonNode event = JSON.readTree(line);
                if (event.has("send")) {
                    pending.clear();
                    event.get("send").get("values").forEach(value -> pending.add(value.asText()));
                    pending.forEach(ackLog::sent);
                } else if (event.has("ack")) {
                    int partition = event.get("ack").get("p").asInt();
                    long base = event.get("ack").get("base").asLong();
                    long now = System.nanoTime();
                    for (int i = 0; i < pending.size(); i++) {
                        ackLog.acknowledged(new Ack(pending.get(i), partition, base + i, now));
                    }
                    pending.clear();
                } else if (event.has("error")) {
                    JsonNode error = event.get("error");
                    ackLog.failed(new ClientError(SOURCE, error.get("name").asText(), error.get("retriable").asBoolean(),
                            error.get("message").asText()));
                    pending.clear();
                }
            }
        } catch (IOException e) {
            ackLog.failed(new ClientError(SOURCE, "unreadable kafkajs output", false, e.toString()));
        }
    }

    /** Closes node's stdin (it finishes the batch in flight and exits), then waits for it. */
    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("kafkajs did not finish within 120 s after stdin closed");
            }
            reader.join(10_000);
            Runtime.getRuntime().removeShutdownHook(cleanUpOnExit);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
