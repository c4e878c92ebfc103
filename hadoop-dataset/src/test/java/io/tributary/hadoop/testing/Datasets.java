package io.tributary.hadoop.testing;

import io.tributary.hadoop.dataset.DataFileName;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.avro.AvroReadSupport;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;

import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** Reads a topic of a dataset back and checks it holds each offset exactly once. */
public final class Datasets {
    private static final Schema POSITION = SchemaBuilder.record("Position").namespace("io.tributary").fields()
        .requiredInt("partition").requiredLong("offset").endRecord();

    private Datasets() {
    }

    /** Every committed data file of {@code topic}, checked against its name (partition, first and last offset). */
    public static Map<Integer, BitSet> offsetsByPartition(Path root, String topic, Configuration conf) throws IOException {
        Configuration read = new Configuration(conf);
        AvroReadSupport.setRequestedProjection(read, POSITION);
        Map<Integer, BitSet> seen = new TreeMap<>();
        for (Path file : dataFiles(root, topic, conf)) {
            DataFileName name = DataFileName.parse(file.getName()).orElseThrow();
            long first = Long.MAX_VALUE;
            long last = -1;
            try (ParquetReader<GenericRecord> reader = AvroParquetReader.<GenericRecord>builder(HadoopInputFile.fromPath(file, read))
                    .withConf(read).build()) {
                for (GenericRecord r = reader.read(); r != null; r = reader.read()) {
                    int partition = (Integer) r.get("partition");
                    long offset = (Long) r.get("offset");
                    assertThat(partition).as("partition in %s", file).isEqualTo(name.partition());
                    BitSet offsets = seen.computeIfAbsent(partition, p -> new BitSet());
                    assertThat(offsets.get((int) offset)).as("offset %d of partition %d written twice (%s)", offset, partition, file).isFalse();
                    offsets.set((int) offset);
                    first = Math.min(first, offset);
                    last = Math.max(last, offset);
                }
            }
            assertThat(first).as("first offset of %s", file).isEqualTo(name.startOffset());
            assertThat(last).as("last offset of %s", file).isEqualTo(name.endOffset());
        }
        return seen;
    }

    /** Asserts the topic holds exactly offsets {@code [0, count)} of each of {@code partitions}. */
    public static void assertEveryOffsetOnce(Path root, String topic, int partitions, int count, Configuration conf) throws IOException {
        Map<Integer, BitSet> seen = offsetsByPartition(root, topic, conf);
        assertThat(seen.keySet()).hasSize(partitions);
        seen.forEach((p, offsets) -> {
            assertThat(offsets.cardinality()).as("records of partition %d", p).isEqualTo(count);
            assertThat(offsets.nextClearBit(0)).as("first missing offset of partition %d", p).isEqualTo(count);
        });
    }

    /** Every row of one Parquet file, read with parquet-avro. */
    public static List<GenericRecord> rows(Path file, Configuration conf) throws IOException {
        List<GenericRecord> rows = new ArrayList<>();
        try (ParquetReader<GenericRecord> reader = AvroParquetReader.<GenericRecord>builder(HadoopInputFile.fromPath(file, conf)).build()) {
            for (GenericRecord r = reader.read(); r != null; r = reader.read()) {
                rows.add(r);
            }
        }
        return rows;
    }

    public static List<Path> dataFiles(Path root, String topic, Configuration conf) throws IOException {
        Path topicDir = new Path(root, topic);
        FileSystem fs = topicDir.getFileSystem(conf);
        List<Path> files = new ArrayList<>();
        if (!fs.exists(topicDir)) {
            return files;
        }
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(topicDir, true);
        while (it.hasNext()) {
            Path p = it.next().getPath();
            assertThat(DataFileName.parse(p.getName())).as("only final data files under %s: %s", topicDir, p).isPresent();
            files.add(p);
        }
        return files;
    }
}
