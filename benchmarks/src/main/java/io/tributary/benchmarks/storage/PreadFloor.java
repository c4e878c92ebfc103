package io.tributary.benchmarks.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The control for the random-read comparison: the same system calls a one-batch read makes (two header reads and
 * one 16 KiB data read at a random place), straight on a log's segment files with no log code at all. The ratio of
 * these latencies between the two layouts is what the operating system charges for many files.
 *
 * <p>Nothing may touch the chosen file before the clock starts: even a {@code size()} call (an fstat) would warm
 * the kernel's file and inode structures and the channel object, and hide the very cost of many files that the
 * control is there to show. The file sizes are therefore read once, before measuring.
 */
final class PreadFloor {

    private static final int HEADER_BYTES = 27;

    private PreadFloor() {
    }

    /** Latencies in ns of {@code count} header-header-data read triples spread over the .log files of {@code dir}. */
    static long[] measure(Path dir, int count, Random random) throws IOException {
        List<FileChannel> files = new ArrayList<>();
        try (Stream<Path> logs = Files.list(dir)) {
            for (Path log : logs.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList()) {
                files.add(FileChannel.open(log, StandardOpenOption.READ));
            }
        }
        long[] sizes = new long[files.size()];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = files.get(i).size();
        }
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
        ByteBuffer data = ByteBuffer.allocate(BenchmarkBatches.BATCH_BYTES);
        long[] nanos = new long[count];
        try {
            for (int i = 0; i < count; i++) {
                int chosen = random.nextInt(files.size());
                FileChannel file = files.get(chosen);
                long position = (long) (random.nextDouble() * Math.max(1, sizes[chosen] - data.capacity()));
                long start = System.nanoTime();
                file.read(header.clear(), position);
                file.read(header.clear(), position);
                file.read(data.clear(), position);
                nanos[i] = System.nanoTime() - start;
            }
        } finally {
            for (FileChannel file : files) {
                file.close();
            }
        }
        return nanos;
    }
}
