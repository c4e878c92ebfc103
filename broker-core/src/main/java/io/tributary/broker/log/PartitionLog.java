package io.tributary.broker.log;

import java.nio.file.Path;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;

/** API skeleton: the implementation lands in the next commits. */
public final class PartitionLog {

    public TopicPartition topicPartition() {
        throw notYet();
    }

    public LogAppendInfo appendAsLeader(MemoryRecords records, int leaderEpoch) {
        throw notYet();
    }

    public LogAppendInfo appendAsFollower(MemoryRecords records) {
        throw notYet();
    }

    public FetchDataInfo read(long startOffset, int maxBytes, long maxOffsetExclusive, boolean minOneBatch) {
        throw notYet();
    }

    public long logStartOffset() {
        throw notYet();
    }

    public long logEndOffset() {
        throw notYet();
    }

    public Optional<FileRecords.TimestampAndOffset> offsetForTimestamp(long timestamp) {
        throw notYet();
    }

    public Optional<FileRecords.TimestampAndOffset> maxTimestampAndOffset() {
        throw notYet();
    }

    public void truncateTo(long offset) {
        throw notYet();
    }

    public void updateConfig(LogConfig config) {
        throw notYet();
    }

    public void flush() {
        throw notYet();
    }

    public Path dir() {
        throw notYet();
    }

    private static UnsupportedOperationException notYet() {
        return new UnsupportedOperationException("storage engine in progress");
    }
}
