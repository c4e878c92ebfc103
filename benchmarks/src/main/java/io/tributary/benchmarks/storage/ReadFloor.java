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
 * The controls for the random-read comparison: the memory accesses and system calls of a one-batch read (two
 * header reads and one 16 KiB data read at a random place) straight on a log's segment files, with no log code:
 * {@link #pread} through positioned reads, as the log reads its active segment, and {@link #mapped} from read-only
 * mappings, as it reads inactive segments. The ratio of these latencies between the two layouts is what the
 * operating system and the memory system charge for many files.
 *
 * <p>Nothing may touch the chosen file before the clock starts: even a {@code size()} call (an fstat) would warm
 * the kernel's file and inode structures and the channel object, and hide the very cost of many files that the
 * control is there to show. The file sizes are therefore read once, before measuring.
 */
final class ReadFloor {

    private static final int HEADER_BYTES = 27;

    private ReadFloor() {
    }

    /** Latencies in ns of {@code count} header-header-data read triples through positioned reads. */
    static long[] pread(Path dir, int count, Random random) throws IOException {
        List<FileChannel> files = open(dir);
        try {
            long[] sizes = new long[files.size()];
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = files.get(i).size();
            }
            ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
            ByteBuffer data = ByteBuffer.allocate(BenchmarkBatches.BATCH_BYTES);
            long[] nanos = new long[count];
            for (int i = 0; i < count; i++) {
                int chosen = random.nextInt(files.size());
                FileChannel file = files.get(chosen);
                long position = randomPosition(sizes[chosen], random);
                long start = System.nanoTime();
                file.read(header.clear(), position);
                file.read(header.clear(), position);
                file.read(data.clear(), position);
                nanos[i] = System.nanoTime() - start;
            }
            return nanos;
        } finally {
            close(files);
        }
    }

    /** Latencies in ns of {@code count} header-header-data copy triples from read-only mappings of the files. */
    static long[] mapped(Path dir, int count, Random random) throws IOException {
        List<FileChannel> files = open(dir);
        List<ByteBuffer> mappings = new ArrayList<>();
        try {
            for (FileChannel file : files) {
                mappings.add(file.map(FileChannel.MapMode.READ_ONLY, 0, file.size()));
            }
        } finally {
            close(files); // a mapping outlives its channel
        }
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
        ByteBuffer data = ByteBuffer.allocate(BenchmarkBatches.BATCH_BYTES);
        long[] nanos = new long[count];
        for (int i = 0; i < count; i++) {
            ByteBuffer mapping = mappings.get(random.nextInt(mappings.size()));
            int position = (int) randomPosition(mapping.capacity(), random);
            long start = System.nanoTime();
            header.put(0, mapping, position, HEADER_BYTES);
            header.put(0, mapping, position, HEADER_BYTES);
            data.put(0, mapping, position, data.capacity());
            nanos[i] = System.nanoTime() - start;
        }
        return nanos;
    }

    private static long randomPosition(long fileSize, Random random) {
        return (long) (random.nextDouble() * Math.max(1, fileSize - BenchmarkBatches.BATCH_BYTES));
    }

    private static List<FileChannel> open(Path dir) throws IOException {
        List<FileChannel> files = new ArrayList<>();
        try (Stream<Path> logs = Files.list(dir)) {
            for (Path log : logs.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList()) {
                files.add(FileChannel.open(log, StandardOpenOption.READ));
            }
        }
        return files;
    }

    private static void close(List<FileChannel> files) throws IOException {
        for (FileChannel file : files) {
            file.close();
        }
    }
}
