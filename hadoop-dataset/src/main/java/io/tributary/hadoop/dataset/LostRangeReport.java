package io.tributary.hadoop.dataset;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The report of ranges a skip-mode load (or a sink with on.missing=skip) could not read, {@code <root>/_tributary/lost-ranges/<topic>-<jobId>.tsv}:
 * a header line, then {@code topic, partition, start, end (exclusive)} per lost range.
 */
public final class LostRangeReport {
    public static final String HEADER = "topic\tpartition\tstart\tend_exclusive";

    private LostRangeReport() {
    }

    public static Path path(DatasetLayout layout, String topic, String jobId) {
        return new Path(new Path(layout.metaDir(), "lost-ranges"), topic + "-" + jobId + ".tsv");
    }

    public static Path write(DatasetLayout layout, String topic, String jobId, List<LostRange> lost, Configuration conf) throws IOException {
        Path report = path(layout, topic, jobId);
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        lost.forEach(r -> text.append(r.reportLine()).append('\n'));
        FileSystem fs = report.getFileSystem(conf);
        DurableFiles.write(fs, report, text.toString().getBytes(StandardCharsets.UTF_8), true);
        DurableFiles.syncDirectory(fs, report.getParent());
        return report;
    }
}
