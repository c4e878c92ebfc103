package io.tributary.sink;

import io.tributary.hadoop.dataset.DataFileName;
import io.tributary.hadoop.dataset.DatasetLayout;
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

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a topic's part of a dataset holds, read back through parquet-avro: the offsets of each
 * partition, any offset seen twice, and files whose content does not match their name.
 */
record DatasetContents(Map<Integer, BitSet> offsets, List<String> duplicates, List<String> misnamed, int files) {
    private static final Schema POSITION = SchemaBuilder.record("Position").namespace("io.tributary").fields()
        .requiredInt("partition").requiredLong("offset").endRecord();

    static DatasetContents read(Path root, String topic, Configuration conf) throws IOException {
        Configuration projected = new Configuration(conf);
        AvroReadSupport.setRequestedProjection(projected, POSITION);
        Map<Integer, BitSet> offsets = new TreeMap<>();
        List<String> duplicates = new ArrayList<>();
        List<String> misnamed = new ArrayList<>();
        List<Path> files = dataFiles(root, topic, conf);
        for (Path file : files) {
            DataFileName name = DataFileName.parse(file.getName()).orElseThrow();
            long first = Long.MAX_VALUE;
            long last = -1;
            try (ParquetReader<GenericRecord> reader = AvroParquetReader.<GenericRecord>builder(
                    HadoopInputFile.fromPath(file, projected)).withConf(projected).build()) {
                for (GenericRecord r = reader.read(); r != null; r = reader.read()) {
                    int partition = (Integer) r.get("partition");
                    long offset = (Long) r.get("offset");
                    BitSet seen = offsets.computeIfAbsent(partition, p -> new BitSet());
                    if (seen.get((int) offset)) {
                        duplicates.add(partition + "@" + offset + " in " + file.getName());
                    }
                    seen.set((int) offset);
                    first = Math.min(first, offset);
                    last = Math.max(last, offset);
                }
            }
            if (first != name.startOffset() || last != name.endOffset()) {
                misnamed.add(file.getName() + " holds " + first + ".." + last);
            }
        }
        return new DatasetContents(offsets, duplicates, misnamed, files.size());
    }

    /** Final data files of the topic; fails on anything else in its directories. */
    static List<Path> dataFiles(Path root, String topic, Configuration conf) throws IOException {
        Path topicDir = new Path(root, topic);
        FileSystem fs = topicDir.getFileSystem(conf);
        List<Path> files = new ArrayList<>();
        if (!fs.exists(topicDir)) {
            return files;
        }
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(topicDir, true);
        while (it.hasNext()) {
            Path p = it.next().getPath();
            if (p.getName().endsWith(".crc")) {
                continue; // checksums of the local filesystem
            }
            assertThat(DataFileName.parse(p.getName())).as("only final data files under %s: %s", topicDir, p).isPresent();
            files.add(p);
        }
        return files;
    }

    /** Temp files and commit intents left under the dataset's temp directories. */
    static List<Path> leftovers(Path root, Configuration conf) throws IOException {
        Path tmp = new Path(new DatasetLayout(root, java.time.ZoneOffset.UTC).metaDir(), "tmp");
        FileSystem fs = tmp.getFileSystem(conf);
        List<Path> left = new ArrayList<>();
        try {
            RemoteIterator<LocatedFileStatus> it = fs.listFiles(tmp, true);
            while (it.hasNext()) {
                left.add(it.next().getPath());
            }
        } catch (FileNotFoundException none) {
            return left;
        }
        return left;
    }

    long count() {
        return offsets.values().stream().mapToLong(BitSet::cardinality).sum();
    }

    /** Asserts offsets {@code [0, end)} of each partition are there, each exactly once. */
    void assertExactly(Map<Integer, Long> endOffsets) {
        assertThat(duplicates).as("offsets written twice").isEmpty();
        assertThat(misnamed).as("files whose name does not match their offsets").isEmpty();
        endOffsets.forEach((p, end) -> {
            BitSet seen = offsets.getOrDefault(p, new BitSet());
            assertThat(seen.nextClearBit(0)).as("first missing offset of partition %d", p).isEqualTo(end.intValue());
            assertThat((long) seen.cardinality()).as("records of partition %d", p).isEqualTo(end);
        });
        assertThat(offsets.keySet()).as("partitions").isSubsetOf(endOffsets.keySet());
    }
}
