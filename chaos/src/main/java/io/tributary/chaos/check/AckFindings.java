package io.tributary.chaos.check;

import java.util.List;

/**
 * What the log holds compared with what the brokers acknowledged.
 *
 * @param lost         acknowledged records that are not in their partition
 * @param moved        acknowledged records that are in their partition, but not at the offset acknowledged
 * @param duplicated   extra copies of records that are in a partition more than once
 * @param outOfOrder   records stored before a record that one producer sent earlier to the same partition
 * @param neverSent    records in the log that no producer sent
 * @param examples     a few of each, for the report
 */
public record AckFindings(int acknowledged, int lost, int moved, int duplicated, int outOfOrder, int neverSent,
                          List<String> examples) {

    public boolean clean() {
        return lost == 0 && moved == 0 && duplicated == 0 && outOfOrder == 0 && neverSent == 0;
    }
}
