package io.tributary.examples;

import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Reads rows of a dataset back, to look at their columns. */
public final class DatasetRows {
    private DatasetRows() {
    }

    /** The first row of the first Parquet file found under {@code <root>/<topic>}. */
    public static GenericRecord first(Path root, String topic, Configuration conf) throws IOException {
        List<Path> files = parquetFiles(root, topic, conf);
        if (files.isEmpty()) {
            throw new AssertionError("no Parquet file under " + new Path(root, topic));
        }
        try (ParquetReader<GenericRecord> reader = reader(files.get(0), conf)) {
            return reader.read();
        }
    }

    /** {@code partition@offset} of every row of every Parquet file under {@code <root>/<topic>}, duplicates kept. */
    public static List<String> positions(Path root, String topic, Configuration conf) throws IOException {
        List<String> positions = new ArrayList<>();
        for (Path file : parquetFiles(root, topic, conf)) {
            try (ParquetReader<GenericRecord> reader = reader(file, conf)) {
                for (GenericRecord row = reader.read(); row != null; row = reader.read()) {
                    positions.add(row.get("partition") + "@" + row.get("offset"));
                }
            }
        }
        return positions;
    }

    private static List<Path> parquetFiles(Path root, String topic, Configuration conf) throws IOException {
        Path dir = new Path(root, topic);
        List<Path> files = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> listing = dir.getFileSystem(conf).listFiles(dir, true);
        while (listing.hasNext()) {
            Path file = listing.next().getPath();
            if (file.getName().endsWith(".parquet")) {
                files.add(file);
            }
        }
        return files;
    }

    private static ParquetReader<GenericRecord> reader(Path file, Configuration conf) throws IOException {
        return AvroParquetReader.<GenericRecord>builder(HadoopInputFile.fromPath(file, conf)).withConf(conf).build();
    }
}
