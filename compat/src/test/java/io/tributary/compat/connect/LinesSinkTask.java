package io.tributary.compat.connect;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.Map;

/**
 * Appends each value as a line and flushes after every batch, so a line in the file is a record delivered; the
 * worker commits the consumer's offsets after that (at-least-once, as Kafka's own file sink).
 */
public final class LinesSinkTask extends SinkTask {
    private BufferedWriter writer;

    @Override
    public void start(Map<String, String> props) {
        Path file = Path.of(new AbstractConfig(LinesSinkConnector.CONFIG, props).getString(LinesSinkConnector.FILE));
        try {
            writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new ConnectException("cannot open " + file, e);
        }
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        try {
            for (SinkRecord record : records) {
                writer.write(String.valueOf(record.value()));
                writer.newLine();
            }
            writer.flush();
        } catch (IOException e) {
            throw new ConnectException("cannot append to the file", e);
        }
    }

    @Override
    public void stop() {
        try {
            if (writer != null) {
                writer.close();
            }
        } catch (IOException e) {
            throw new ConnectException("cannot close the file", e);
        }
    }

    @Override
    public String version() {
        return "1";
    }
}
