package io.tributary.consumer.cli;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code tributary produce <topic>}: one record per line of stdin. With {@code --key-separator}
 * each line is {@code key<separator>value}; a line without the separator stops the command with an
 * error naming the line (the lines before it are sent and acknowledged).
 */
@Command(name = "produce", mixinStandardHelpOptions = true, description = "Send the lines of stdin as records.")
final class ProduceCommand implements Callable<Integer> {
    private final CliContext context;

    @Mixin
    ConnectionOptions connection;

    @Parameters(paramLabel = "<topic>")
    String topic;

    @Option(names = "--key-separator", paramLabel = "S",
            description = "Split each line at the first S into key and value (default: no key).")
    String keySeparator;

    @Option(names = "--header", paramLabel = "k=v", description = "A header for every record; repeatable.")
    Map<String, String> headers = new LinkedHashMap<>();

    @Option(names = "--acks", paramLabel = "all|1|0", defaultValue = "all", converter = AcksConverter.class,
            description = "Acknowledgements to wait for (default: ${DEFAULT-VALUE}).")
    Acks acks;

    @Option(names = "--compression", paramLabel = "C", defaultValue = "none",
            description = "none, gzip, snappy, lz4 or zstd (default: ${DEFAULT-VALUE}).")
    Compression compression;

    @Option(names = "--rate", paramLabel = "N", description = "At most N records per second (default: unlimited).")
    Double rate;

    ProduceCommand(CliContext context) {
        this.context = context;
    }

    enum Acks {
        all("all"), one("1"), none("0");

        private final String value;

        Acks(String value) {
            this.value = value;
        }

    }

    static final class AcksConverter implements CommandLine.ITypeConverter<Acks> {
        @Override
        public Acks convert(String text) {
            for (Acks acks : Acks.values()) {
                if (acks.value.equals(text) || ("-1".equals(text) && acks == Acks.all)) {
                    return acks;
                }
            }
            throw new CommandLine.TypeConversionException("expected all, 1 or 0, got '" + text + "'");
        }
    }

    enum Compression { none, gzip, snappy, lz4, zstd }

    @Override
    public Integer call() throws Exception {
        if (rate != null && !(rate > 0)) {
            throw new CliException("--rate must be positive, got " + rate);
        }
        if (keySeparator != null && keySeparator.isEmpty()) {
            throw new CliException("--key-separator must not be empty");
        }
        KafkaClients clients = new KafkaClients(connection, context);
        try (Admin admin = clients.admin()) {
            KafkaClients.describeTopic(admin, topic);
        }
        AtomicReference<Exception> sendFailure = new AtomicReference<>();
        Optional<String> stoppedBecause;
        try (KafkaProducer<byte[], byte[]> producer = clients.producer(Map.of(
                ProducerConfig.ACKS_CONFIG, acks.value,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, compression.name(),
                // acks=0 cannot be idempotent; otherwise keep the safe default.
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, acks == Acks.all))) {
            // Ctrl-C: the lines read so far still reach the broker.
            ShutdownHook flushOnExit = ShutdownHook.register("tributary-produce-shutdown", producer::flush);
            try {
                stoppedBecause = sendLines(producer, sendFailure);
                producer.flush();
            } finally {
                flushOnExit.close();
            }
        }
        if (sendFailure.get() != null) {
            throw new CliException("sending to " + topic + " failed: "
                    + CliErrors.describe(sendFailure.get(), connection.bootstrapServer()));
        }
        stoppedBecause.ifPresent(problem -> {
            throw new CliException(problem);
        });
        return 0;
    }

    /** Sends each line of stdin; returns why it stopped early, if it did. */
    private Optional<String> sendLines(KafkaProducer<byte[], byte[]> producer, AtomicReference<Exception> sendFailure) {
        RateLimiter limiter = rate == null ? null : new RateLimiter(context.time(), rate);
        BufferedReader lines = new BufferedReader(new InputStreamReader(context.in(), StandardCharsets.UTF_8));
        long lineNumber = 0;
        try {
            for (String line = lines.readLine(); line != null && sendFailure.get() == null; line = lines.readLine()) {
                lineNumber++;
                Optional<ProducerRecord<byte[], byte[]>> record = toRecord(line);
                if (record.isEmpty()) {
                    return Optional.of("line " + lineNumber + " has no key separator '" + keySeparator
                            + "'; the " + (lineNumber - 1) + " line(s) before it were sent");
                }
                if (limiter != null) {
                    limiter.acquire();
                }
                producer.send(record.get(), (metadata, error) -> {
                    if (error != null) {
                        sendFailure.compareAndSet(null, error);
                    }
                });
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("cannot read stdin after line " + lineNumber + ": " + e.getMessage());
        }
    }

    /** The record of one line; empty if the line lacks the key separator. */
    private Optional<ProducerRecord<byte[], byte[]>> toRecord(String line) {
        byte[] key = null;
        String value = line;
        if (keySeparator != null) {
            int at = line.indexOf(keySeparator);
            if (at < 0) {
                return Optional.empty();
            }
            key = utf8(line.substring(0, at));
            value = line.substring(at + keySeparator.length());
        }
        RecordHeaders recordHeaders = new RecordHeaders();
        headers.forEach((name, headerValue) -> recordHeaders.add(name, utf8(headerValue)));
        return Optional.of(new ProducerRecord<>(topic, null, null, key, utf8(value), recordHeaders));
    }
    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
