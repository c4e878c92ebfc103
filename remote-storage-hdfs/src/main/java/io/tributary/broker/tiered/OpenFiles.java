package io.tributary.broker.tiered;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.common.errors.CorruptRecordException;

/**
 * Open streams of remote files with their lengths, the {@value #MAX_OPEN} used last: a consumer reading a tiered log
 * from its start fetches the same copy many times, and opening a file on HDFS asks the NameNode. Copies never
 * change, so a stream stays good until its copy is deleted ({@link #closeUnder}) or a read of it fails (a damaged file,
 * which may be put back). Positioned reads share a stream. A
 * block that fails the file system's own checksum (on every replica) is a {@link CorruptRecordException} too.
 * Thread-safe.
 */
final class OpenFiles implements Closeable {
    private static final int MAX_OPEN = 64;

    private final FileSystem fs;
    private final Map<Path, Open> open = new LinkedHashMap<>(16, 0.75f, true);

    private record Open(FSDataInputStream stream, long length) {
    }

    OpenFiles(FileSystem fs) {
        this.fs = fs;
    }

    /**
     * Up to {@code length} bytes of {@code file} from {@code position}; fewer only at its end. A stream that fails is
     * closed and forgotten, so that a file put back (repaired) is opened anew, and the read is tried once more on a
     * stream of its own: the shared stream may have failed for another reader's sake (closed after that reader's
     * failed read, or, on HDFS, left believing the only datanode dead after a damaged block elsewhere in the file), and
     * only the reader of a damaged part must see its error.
     */
    ByteBuffer read(Path file, long position, int length) throws IOException {
        Open opened = opened(file);
        try {
            return read(file, opened, position, length);
        } catch (IOException | RuntimeException e) {
            boolean forgotten;
            synchronized (open) {
                forgotten = open.remove(file, opened);
            }
            if (forgotten) {
                closeQuietly(opened);
            }
            return readOnce(file, position, length);
        }
    }

    /** {@link #read} on a stream of its own, closed after: for a file read once (a copy's producer snapshot, say). */
    ByteBuffer readOnce(Path file, long position, int length) throws IOException {
        long fileLength = fs.getFileStatus(file).getLen();
        Open opened = new Open(fs.open(file), fileLength);
        try {
            return read(file, opened, position, length);
        } finally {
            closeQuietly(opened);
        }
    }

    private static ByteBuffer read(Path file, Open opened, long position, int length) throws IOException {
        int size = (int) Math.max(0, Math.min(length, opened.length() - position));
        byte[] bytes = new byte[size];
        try {
            opened.stream().readFully(position, bytes);
        } catch (ChecksumException e) {
            throw new CorruptRecordException(file.getParent().getName() + "/" + file.getName() + " fails the checksum of the "
                    + "file system at position " + e.getPos(), e);
        }
        return ByteBuffer.wrap(bytes);
    }

    private Open opened(Path file) throws IOException {
        synchronized (open) {
            Open found = open.get(file);
            if (found != null) {
                return found;
            }
        }
        long length = fs.getFileStatus(file).getLen();
        Open opened = new Open(fs.open(file), length);
        List<Open> evicted = new ArrayList<>();
        synchronized (open) {
            Open raced = open.putIfAbsent(file, opened);
            if (raced != null) {
                evicted.add(opened);
                opened = raced;
            }
            for (Iterator<Open> oldest = open.values().iterator(); open.size() > MAX_OPEN && oldest.hasNext(); ) {
                evicted.add(oldest.next());
                oldest.remove();
            }
        }
        evicted.forEach(OpenFiles::closeQuietly);
        return opened;
    }

    /** Closes the streams of the files below {@code dir} (a copy about to be deleted). */
    void closeUnder(Path dir) {
        List<Open> closed = new ArrayList<>();
        synchronized (open) {
            open.entrySet().removeIf(entry -> {
                boolean below = entry.getKey().getParent().equals(dir);
                if (below) {
                    closed.add(entry.getValue());
                }
                return below;
            });
        }
        closed.forEach(OpenFiles::closeQuietly);
    }

    private static void closeQuietly(Open file) {
        try {
            file.stream().close();
        } catch (IOException e) {
            // A stream of a file that is gone, or of a broken connection: nothing is lost with it.
        }
    }

    @Override
    public void close() {
        List<Open> all;
        synchronized (open) {
            all = new ArrayList<>(open.values());
            open.clear();
        }
        all.forEach(OpenFiles::closeQuietly);
    }
}
