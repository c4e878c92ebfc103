package io.tributary.examples.serverlogs;

import io.tributary.examples.DatasetScan;

import java.util.Map;

/**
 * What one run of the server-logs pipeline saw.
 *
 * @param produced       lines produced (acknowledged) in this run
 * @param inTopic        records the topic holds (all runs)
 * @param parquet        the topic's rows in the dataset, read back (all runs)
 * @param errorsSent     ERROR lines per host produced in this run
 * @param errorsComputed ERROR rows per host found by the MapReduce job over the Parquet table
 * @param resultDir      where the job wrote its result
 */
public record ServerLogReport(long produced, long inTopic, DatasetScan parquet, Map<String, Long> errorsSent,
                              Map<String, Long> errorsComputed, String resultDir) {

    /** True when every stage saw every line exactly once (a fresh topic and dataset). */
    public boolean countsAgree() {
        return produced == inTopic && parquet.rows() == inTopic && parquet.distinctOffsets() == parquet.rows()
            && errorsSent.equals(errorsComputed);
    }
}
