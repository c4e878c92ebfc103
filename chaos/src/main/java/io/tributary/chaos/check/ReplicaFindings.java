package io.tributary.chaos.check;

import java.util.List;

/**
 * How the replicas' segment files compare after a clean stop.
 *
 * @param divergentPartitions partitions whose replicas do not hold byte-identical batches below the common high watermark
 * @param epochRegressions    batches stamped with a lower leader epoch than a batch before them in the same replica
 * @param comparedBatches     batches compared (summed over partitions, counted once per partition)
 * @param examples            what differed, for the report
 */
public record ReplicaFindings(int divergentPartitions, int epochRegressions, long comparedBatches, List<String> examples) {

    public boolean clean() {
        return divergentPartitions == 0 && epochRegressions == 0;
    }
}
