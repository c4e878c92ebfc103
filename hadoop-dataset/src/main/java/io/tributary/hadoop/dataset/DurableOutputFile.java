package io.tributary.hadoop.dataset;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.io.DelegatingPositionOutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

import java.io.IOException;
import java.util.Set;

/**
 * A Parquet output file whose bytes are durable once the writer has closed it ({@link
 * DurableFiles#syncAndClose}): the loader and the sink rename a closed file into the dataset and
 * then record it in the ledger, which must never cover data a power loss can take back.
 */
final class DurableOutputFile implements OutputFile {
    private static final int BUFFER_BYTES = 4096;
    // Where Parquet may align row groups to blocks, as its own HadoopOutputFile decides.
    private static final Set<String> BLOCK_FILESYSTEMS = Set.of("hdfs", "webhdfs", "viewfs");

    private final FileSystem fs;
    private final Path path;

    DurableOutputFile(Path path, Configuration conf) throws IOException {
        this.fs = path.getFileSystem(conf);
        this.path = path;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) throws IOException {
        return open(false, blockSizeHint);
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
        return open(true, blockSizeHint);
    }

    private PositionOutputStream open(boolean overwrite, long blockSizeHint) throws IOException {
        FSDataOutputStream out = fs.create(path, overwrite, BUFFER_BYTES, fs.getDefaultReplication(path),
            Math.max(fs.getDefaultBlockSize(path), blockSizeHint));
        return new DelegatingPositionOutputStream(out) {
            @Override
            public long getPos() throws IOException {
                return out.getPos();
            }

            // Parquet flushes and closes in a try-with-resources. A failed HDFS stream throws one
            // exception object from both, and adding it to itself as suppressed fails with an
            // IllegalArgumentException that hides the storage failure: the close throws its own.
            @Override
            public void close() throws IOException {
                try {
                    DurableFiles.syncAndClose(fs, path, out);
                } catch (IOException e) {
                    throw new IOException("could not close " + path + ": " + e.getMessage(), e);
                }
            }
        };
    }

    @Override
    public boolean supportsBlockSize() {
        return BLOCK_FILESYSTEMS.contains(fs.getUri().getScheme());
    }

    @Override
    public long defaultBlockSize() {
        return fs.getDefaultBlockSize(path);
    }

    @Override
    public String getPath() {
        return path.toString();
    }
}
