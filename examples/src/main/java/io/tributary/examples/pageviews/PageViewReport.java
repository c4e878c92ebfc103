package io.tributary.examples.pageviews;

import io.tributary.examples.DatasetScan;

import java.util.Map;
import java.util.TreeMap;

/**
 * What one run of the page-views pipeline saw at each stage.
 *
 * @param produced     records acknowledged by the broker in this run
 * @param consumedLive records the live consumer group handled in this run
 * @param inTopic      records the topic holds (all runs)
 * @param liveByUrl    the live counts per URL
 * @param parquet      the topic's rows in the dataset, read back from the Parquet files (all runs)
 */
public record PageViewReport(long produced, long consumedLive, long inTopic, Map<String, Long> liveByUrl,
                             DatasetScan parquet) {

    /** True when every stage saw every record exactly once (a fresh topic and dataset). */
    public boolean countsAgree() {
        return produced == consumedLive && produced == inTopic && parquet.rows() == inTopic
            && parquet.distinctOffsets() == parquet.rows() && parquet.countsByColumn().equals(new TreeMap<>(liveByUrl));
    }
}
