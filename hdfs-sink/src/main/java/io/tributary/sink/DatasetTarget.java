package io.tributary.sink;

import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.ParquetWriterFactory;
import org.apache.avro.Schema;
import org.apache.kafka.common.TopicPartition;

/**
 * Everything about the dataset the sink writes: layout, row schema, writers, commits and resume positions.
 *
 * @param openFileCost the memory an open file costs, for the memory budget
 */
record DatasetTarget(DatasetLayout layout, Schema schema, ParquetWriterFactory writers, OpenFileCost openFileCost,
                     CommitProtocol protocol, ResumePositions resume) {
    /** Fresh, empty files for {@code tp}, starting where it resumed. */
    PartitionFiles newFiles(TopicPartition tp, ResumePoint resume) {
        return new PartitionFiles(tp, layout, writers, schema, openFileCost, resume);
    }
}
