package io.tributary.broker.log.remote;

import java.util.NavigableMap;
import org.apache.kafka.common.TopicPartition;

/** What the tiered-storage tasks of a partition this broker leads need from its replica (the replica layer answers). */
public interface LeaderView {

    /** The last stable offset of {@code tp}'s leader: no record at or above it is copied (it may still be truncated). */
    long lastStableOffset(TopicPartition tp);

    /** {@code tp}'s leader epochs: epoch → its first offset, oldest first (the leader-epoch checkpoint's entries). */
    NavigableMap<Integer, Long> leaderEpochs(TopicPartition tp);
}
