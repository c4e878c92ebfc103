package io.tributary.broker.log;

import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Read-only memory mappings of inactive segments, and the cap on how many are alive.
 *
 * <p>Why map: a read at a random offset through {@code pread} pays for the kernel's per-file structures (file
 * table slot, file, inode, page-cache tree), which are cold in the CPU cache when a log has thousands of segments;
 * the 10,000-segment log read 1.3 times slower than the 10-segment one through the very same system calls. A read
 * from a mapping makes no system call: it costs the same whatever the number of segments, and about a third of a
 * {@code pread} (see docs/benchmarks.md).
 *
 * <p>The cap: every mapping is one entry of the process's memory-map table, which the kernel limits
 * ({@code vm.max_map_count}, 65,530 by default); the JVM and the active segments' mapped indexes need entries
 * too. So at most half the limit is used for segments; a segment refused a mapping is read through its file.
 * A mapping counts until the GC has collected its buffer, which is also when the JDK unmaps it (readers and
 * network sends holding a slice keep it alive).
 *
 * <p>Thread-safe.
 */
final class SegmentMappings {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentMappings.class);
    private static final Path MAX_MAP_COUNT = Path.of("/proc/sys/vm/max_map_count");
    private static final int MAX_MAP_COUNT_UNKNOWN = 65_530;
    private static final Cleaner RELEASER = Cleaner.create();

    /** The one budget of this process (the kernel's limit is per process). */
    static final SegmentMappings PROCESS = new SegmentMappings(kernelLimit() / 2);
    /** Maps nothing: every read goes through the files ({@code log.read.mmap.enable=false}). */
    static final SegmentMappings OFF = new SegmentMappings(0);

    private final int capacity;
    private final AtomicInteger live = new AtomicInteger();
    private final AtomicBoolean warnedFull = new AtomicBoolean();

    SegmentMappings(int capacity) {
        this.capacity = capacity;
    }

    /**
     * Maps the first {@code size} bytes of {@code channel} read-only, or returns null if the cap is reached or
     * the mapping fails; the caller then reads through the channel.
     */
    ByteBuffer map(FileChannel channel, int size, Path file) {
        if (!reserve()) {
            return null;
        }
        ByteBuffer mapped;
        try {
            mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
        } catch (IOException | RuntimeException e) {
            live.decrementAndGet();
            LOG.warn("Cannot map segment {} for reads; it is read through its file: {}", file, e.toString());
            return null;
        }
        RELEASER.register(mapped, live::decrementAndGet);
        return mapped;
    }

    private boolean reserve() {
        while (true) {
            int now = live.get();
            if (now >= capacity) {
                if (capacity > 0 && warnedFull.compareAndSet(false, true)) {
                    LOG.warn("{} segments are memory-mapped, the most this process maps (half of vm.max_map_count); "
                            + "further inactive segments are read through their files", capacity);
                }
                return false;
            }
            if (live.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** Mappings alive now: made and not yet collected. */
    int live() {
        return live.get();
    }

    private static int kernelLimit() {
        try {
            // Not Files.readString: it trusts the size a /proc file reports and returns the first byte only.
            return Integer.parseInt(Files.readAllLines(MAX_MAP_COUNT).get(0).trim());
        } catch (IOException | RuntimeException e) {
            return MAX_MAP_COUNT_UNKNOWN;
        }
    }
}
