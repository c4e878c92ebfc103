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

/** Reads single rows of a dataset back, to look at its columns. */
public final class DatasetRows {
    private DatasetRows() {
    }

    /** The first row of the first Parquet file found under {@code <root>/<topic>}. */
    public static GenericRecord first(Path root, String topic, Configuration conf) throws IOException {
        Path dir = new Path(root, topic);
        RemoteIterator<LocatedFileStatus> files = dir.getFileSystem(conf).listFiles(dir, true);
        while (files.hasNext()) {
            Path file = files.next().getPath();
            if (file.getName().endsWith(".parquet")) {
                try (ParquetReader<GenericRecord> reader = AvroParquetReader
                        .<GenericRecord>builder(HadoopInputFile.fromPath(file, conf)).withConf(conf).build()) {
                    return reader.read();
                }
            }
        }
        throw new AssertionError("no Parquet file under " + dir);
    }
}
