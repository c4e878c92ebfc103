package io.tributary.broker.log;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;

/** API skeleton: the implementation lands in the next commits. */
public final class LogManager implements AutoCloseable {

    private LogManager() {
    }

    public static LogManager open(List<Path> logDirs, LogConfig defaults, Time time) {
        throw new UnsupportedOperationException("storage engine in progress");
    }

    public PartitionLog getOrCreate(TopicPartition tp, LogConfig config) {
        throw new UnsupportedOperationException("storage engine in progress");
    }

    public Optional<PartitionLog> log(TopicPartition tp) {
        throw new UnsupportedOperationException("storage engine in progress");
    }

    public Collection<PartitionLog> logs() {
        throw new UnsupportedOperationException("storage engine in progress");
    }

    public void updateConfig(String topic, LogConfig config) {
        throw new UnsupportedOperationException("storage engine in progress");
    }

    public void delete(TopicPartition tp) {
        throw new UnsupportedOperationException("storage engine in progress");
    }

    @Override
    public void close() {
        throw new UnsupportedOperationException("storage engine in progress");
    }
}
