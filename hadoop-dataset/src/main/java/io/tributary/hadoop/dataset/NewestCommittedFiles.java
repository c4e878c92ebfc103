package io.tributary.hadoop.dataset;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Finds the last committed offset per partition from the final file names in the newest
 * {@code maxBuckets} hour buckets of a topic, newest first, without walking the whole tree
 * (at most {@code maxBuckets} hour listings plus the date listings needed to reach them).
 * A file committed just before a crash, before its ledger write, is in a recent bucket, so the
 * bounded look is enough to resume without writing it twice.
 */
public final class NewestCommittedFiles {
    private static final Comparator<FileStatus> NEWEST_FIRST =
        Comparator.comparing((FileStatus s) -> s.getPath().getName()).reversed();

    private final FileSystem fs;
    private final DatasetLayout layout;
    private final int maxBuckets;

    public NewestCommittedFiles(FileSystem fs, DatasetLayout layout, int maxBuckets) {
        if (maxBuckets < 1) {
            throw new IllegalArgumentException("maxBuckets must be at least 1, got " + maxBuckets);
        }
        this.fs = fs;
        this.layout = layout;
        this.maxBuckets = maxBuckets;
    }

    /** Inclusive last offset of the newest committed file of each partition seen in the newest buckets. */
    public Map<Integer, Long> lastOffsets(String topic) throws IOException {
        Map<Integer, Long> last = new TreeMap<>();
        for (Path bucket : newestBuckets(topic)) {
            for (FileStatus file : list(bucket)) {
                DataFileName.parse(file.getPath().getName())
                    .filter(name -> name.topic().equals(topic))
                    .ifPresent(name -> last.merge(name.partition(), name.endOffset(), Math::max));
            }
        }
        return last;
    }

    /** The newest hour bucket directories of {@code topic}, at most {@code maxBuckets}, newest first. */
    List<Path> newestBuckets(String topic) throws IOException {
        List<Path> buckets = new ArrayList<>();
        for (FileStatus date : dirsWithPrefix(layout.topicDir(topic), DatasetLayout.DATE_PREFIX)) {
            for (FileStatus hour : dirsWithPrefix(date.getPath(), DatasetLayout.HOUR_PREFIX)) {
                buckets.add(hour.getPath());
                if (buckets.size() == maxBuckets) {
                    return buckets;
                }
            }
        }
        return buckets;
    }

    // Bucket names sort by time because their fields are fixed-width and zero-padded.
    private List<FileStatus> dirsWithPrefix(Path dir, String prefix) throws IOException {
        return Arrays.stream(list(dir))
            .filter(s -> s.isDirectory() && s.getPath().getName().startsWith(prefix))
            .sorted(NEWEST_FIRST)
            .toList();
    }

    private FileStatus[] list(Path dir) throws IOException {
        try {
            return fs.listStatus(dir);
        } catch (FileNotFoundException absent) {
            return new FileStatus[0];
        }
    }
}
