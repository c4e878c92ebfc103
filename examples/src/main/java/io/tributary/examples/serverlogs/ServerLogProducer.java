package io.tributary.examples.serverlogs;

import io.tributary.examples.CountingProducer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns text log lines into records of the {@code server-logs} topic: parsed into a
 * {@code ServerLog} Avro record, encoded as plain Avro binary (what the loader's
 * {@code --value-format avro} decodes), keyed by host, stamped with the line's time.
 * Counts the ERROR lines per host as it goes, the answer the batch job must find again.
 * Not thread-safe.
 */
public final class ServerLogProducer {
    private final String topic;
    private final LogLineParser parser;
    private final GenericDatumWriter<GenericRecord> writer;
    private final CountingProducer<String, byte[]> producer;
    private final Map<String, Long> errorsByHost = new TreeMap<>();
    private BinaryEncoder encoder;

    public ServerLogProducer(String topic, Schema schema, CountingProducer<String, byte[]> producer) {
        this.topic = topic;
        this.parser = new LogLineParser(schema);
        this.writer = new GenericDatumWriter<>(schema);
        this.producer = producer;
    }

    /** Parses and sends one line; a line that does not parse throws before anything is sent. */
    public void send(String line) {
        LogLineParser.ParsedLine parsed = parser.parse(line);
        producer.send(new ProducerRecord<>(topic, null, parsed.timestampMs(), parsed.host(), encode(parsed.record())));
        if ("ERROR".equals(parsed.record().get("level"))) {
            errorsByHost.merge(parsed.host(), 1L, Long::sum);
        }
    }

    /** ERROR lines sent, per host, in host order. */
    public Map<String, Long> errorsByHost() {
        return Collections.unmodifiableMap(new TreeMap<>(errorsByHost));
    }

    private byte[] encode(GenericRecord record) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        encoder = EncoderFactory.get().binaryEncoder(bytes, encoder);
        try {
            writer.write(record, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
