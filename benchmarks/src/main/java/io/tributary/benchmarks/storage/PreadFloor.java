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
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
        ByteBuffer data = ByteBuffer.allocate(BenchmarkBatches.BATCH_BYTES);
        long[] nanos = new long[count];
        try {
            for (int i = 0; i < count; i++) {
                FileChannel file = files.get(random.nextInt(files.size()));
                long position = (long) (random.nextDouble() * Math.max(1, file.size() - data.capacity()));
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
