package io.tributary.broker.tiered;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class OpenFilesTest {
    private static final int BLOCK_BYTES = 1024 * 1024;
    private static final int READ_BYTES = 4096;
    private static final int READS = 200;

    @TempDir
    java.nio.file.Path dir;

    /**
     * A copy on HDFS whose second block is damaged: reads of it fail, each for its own reader only; readers of the
     * sound first block through the same open stream go on, though a failed read closes that stream (and HDFS marks
     * the datanode dead for it).
     */
    @Test
    void aFailedReadFailsOnlyItsOwnReaderNotTheOthersOfTheSameFile() throws Exception {
        Configuration conf = new Configuration();
        conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK_BYTES);
        // A damaged block fails at once instead of after the client's waits for another replica (there is none).
        conf.setInt("dfs.client.retry.window.base", 1);
        conf.setInt("dfs.client.max.block.acquire.failures", 0);
        MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf, dir.resolve("dfs").toFile()).numDataNodes(1).build();
        ExecutorService readers = Executors.newFixedThreadPool(4);
        try (FileSystem fs = dfs.getFileSystem(); OpenFiles openFiles = new OpenFiles(fs)) {
            Path file = new Path("/copy/00000000000000000000.log");
            try (FSDataOutputStream out = fs.create(file)) {
                out.write(new byte[2 * BLOCK_BYTES]);
            }
            // Every byte of the second block's replica flipped: each read of it fails the file system's checksum.
            java.nio.file.Path replica = dfs.getBlockFile(0, DFSTestUtil.getAllBlocks(fs, file).get(1).getBlock()).toPath();
            byte[] bytes = java.nio.file.Files.readAllBytes(replica);
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] ^= 0x01;
            }
            java.nio.file.Files.write(replica, bytes);
            assertThat(openFiles.read(file, 0, READ_BYTES).remaining()).isEqualTo(READ_BYTES);

            List<Future<?>> sound = new ArrayList<>();
            List<Future<?>> damaged = new ArrayList<>();
            for (int reader = 0; reader < 2; reader++) {
                sound.add(readers.submit(() -> {
                    for (int i = 0; i < READS; i++) {
                        ByteBuffer read = openFiles.read(file, (long) (i % 64) * READ_BYTES, READ_BYTES);
                        assertThat(read.remaining()).isEqualTo(READ_BYTES);
                    }
                    return null;
                }));
                damaged.add(readers.submit(() -> {
                    for (int i = 0; i < READS / 40; i++) {
                        long position = BLOCK_BYTES + (long) i * READ_BYTES;
                        assertThatThrownBy(() -> openFiles.read(file, position, READ_BYTES))
                                .isInstanceOfAny(CorruptRecordException.class, IOException.class);
                    }
                    return null;
                }));
            }
            for (Future<?> done : sound) {
                done.get();
            }
            for (Future<?> done : damaged) {
                done.get();
            }
        } finally {
            readers.shutdownNow();
            dfs.shutdown();
        }
    }
}
