package io.tributary.broker.log.cleaner;

import java.util.Map;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.log.ProducerStateManager;

/** What the cleaner must know of a log besides its segments: from its replica and from its producer state. */
public interface CleanerLogState {

    /**
     * The last stable offset of {@code log}: its high watermark, or the first offset of its oldest open transaction
     * if lower. No segment reaching it is cleaned, so an undecided transaction is never compacted.
     */
    long lastStableOffset(PartitionLog log);

    /** What the cleaner must keep of each producer {@code log} remembers, so that its state survives a replay. */
    Map<Long, ProducerStateManager.LastRecord> lastRecords(PartitionLog log);
}
