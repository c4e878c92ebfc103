package io.tributary.examples;

import io.tributary.hadoop.dataset.DataFileName;
import io.tributary.hadoop.dataset.RecordSchema;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;

import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a topic's Parquet files in a dataset hold, found by reading every row back (not by
 * trusting file names or footers): the files, the rows, the distinct (partition, offset) pairs and
 * the row count per value of one column.
 *
 * @param files          committed data files of the topic
 * @param rows           rows read from them
 * @param distinctOffsets distinct (partition, offset) pairs; equal to rows unless a record was written twice
 * @param countsByColumn rows per value of the column asked for (empty if none was)
 */
public record DatasetScan(int files, long rows, long distinctOffsets, Map<String, Long> countsByColumn) {

    /** Reads every committed file under {@code <root>/<topic>}; {@code groupBy} may be null. */
    public static DatasetScan read(Path root, String topic, String groupBy, Configuration conf) throws IOException {
        Path topicDir = new Path(root, topic);
        FileSystem fs = topicDir.getFileSystem(conf);
        int files = 0;
        long rows = 0;
        Set<String> offsets = new HashSet<>();
        Map<String, Long> counts = new TreeMap<>();
        if (!fs.exists(topicDir)) {
            return new DatasetScan(0, 0, 0, counts);
        }
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(topicDir, true);
        while (it.hasNext()) {
            Path file = it.next().getPath();
            if (DataFileName.parse(file.getName()).isEmpty()) {
                continue; // only committed files count; the dataset hides everything else from readers too
            }
            files++;
            try (ParquetReader<GenericRecord> reader = AvroParquetReader
                    .<GenericRecord>builder(HadoopInputFile.fromPath(file, conf)).withConf(conf).build()) {
                for (GenericRecord row = reader.read(); row != null; row = reader.read()) {
                    rows++;
                    offsets.add(row.get(RecordSchema.PARTITION) + "@" + row.get(RecordSchema.OFFSET));
                    if (groupBy != null) {
                        counts.merge(String.valueOf(row.get(groupBy)), 1L, Long::sum);
                    }
                }
            }
        }
        return new DatasetScan(files, rows, offsets.size(), counts);
    }
}
