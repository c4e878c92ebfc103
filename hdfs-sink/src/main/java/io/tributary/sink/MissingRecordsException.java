package io.tributary.sink;

import io.tributary.hadoop.dataset.LostRange;
import io.tributary.hadoop.dataset.TopicRecreatedException;

/**
 * Stops the sink: the log no longer has records the dataset is missing (retention or
 * DeleteRecords took them first, under on.missing=fail), or the dataset is ahead of the log, or
 * it holds the offsets of a topic deleted and created again since.
 * The message names topic, partition and range, and says what to do.
 */
public final class MissingRecordsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private MissingRecordsException(String message) {
        super(message);
    }

    static MissingRecordsException lost(LostRange range) {
        return new MissingRecordsException(range + " were deleted from the log (retention or DeleteRecords) before the sink "
            + "wrote them; everything before them is committed. Set " + SinkConfig.ON_MISSING + "=skip to land the rest and "
            + "record the range in _tributary/lost-ranges/, or reload it from another copy of the topic");
    }

    static MissingRecordsException recreated(TopicRecreatedException e) {
        return new MissingRecordsException(e.getMessage());
    }

    static MissingRecordsException ahead(String topic, int partition, long nextOffset, long logEnd) {
        return new MissingRecordsException(topic + "-" + partition + ": the dataset continues at offset " + nextOffset
            + " but the log ends at " + logEnd + " (was the topic deleted and created again?); "
            + "the sink will not write over the dataset: move its " + topic + " folder and ledger away to start over");
    }
}
