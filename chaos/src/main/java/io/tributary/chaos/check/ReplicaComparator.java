package io.tributary.chaos.check;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import io.tributary.broker.log.OffsetCheckpointFile;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;

/**
 * Compares the replicas of each partition byte for byte, from the segment files the brokers left
 * after a clean stop: every batch that starts below the common high watermark (the lowest one in
 * the replicas' {@code replication-offset-checkpoint}) must be the same bytes in every replica,
 * in the same order. Also checks that leader epochs never go down along a log.
 */
public final class ReplicaComparator {
    private static final String CHECKPOINT = "replication-offset-checkpoint";
    private static final int EXAMPLES = 10;

    private ReplicaComparator() {
    }

    /** @param logDirs each broker's log dir */
    public static ReplicaFindings compare(List<Path> logDirs, String topic, int partitions) {
        int divergent = 0;
        int regressions = 0;
        long compared = 0;
        List<String> examples = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            TopicPartition tp = new TopicPartition(topic, p);
            long commonHighWatermark = Long.MAX_VALUE;
            for (Path dir : logDirs) {
                commonHighWatermark = Math.min(commonHighWatermark, highWatermark(dir, tp));
            }
            List<List<ByteBuffer>> replicas = new ArrayList<>();
            for (Path dir : logDirs) {
                List<FileBatch> batches = batches(dir.resolve(tp.toString()));
                regressions += epochRegressions(batches, dir, tp, examples);
                List<ByteBuffer> below = new ArrayList<>();
                for (FileBatch batch : batches) {
                    if (batch.baseOffset < commonHighWatermark) {
                        below.add(batch.bytes);
                    }
                }
                replicas.add(below);
            }
            compared += replicas.get(0).size();
            for (int r = 1; r < replicas.size(); r++) {
                if (!replicas.get(r).equals(replicas.get(0))) {
                    divergent++;
                    note(examples, tp + ": " + logDirs.get(r) + " differs from " + logDirs.get(0) + " below high watermark "
                            + commonHighWatermark + " (" + replicas.get(r).size() + " vs " + replicas.get(0).size() + " batches, first difference at batch "
                            + firstDifference(replicas.get(0), replicas.get(r)) + ")");
                    break;
                }
            }
        }
        return new ReplicaFindings(divergent, regressions, compared, List.copyOf(examples));
    }

    private record FileBatch(long baseOffset, int leaderEpoch, ByteBuffer bytes) {
    }

    private static long highWatermark(Path logDir, TopicPartition tp) {
        try {
            Map<TopicPartition, Long> all = new OffsetCheckpointFile(logDir.resolve(CHECKPOINT)).read();
            return all.getOrDefault(tp, 0L);
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable " + logDir.resolve(CHECKPOINT), e);
        }
    }

    private static List<FileBatch> batches(Path partitionDir) {
        List<FileBatch> batches = new ArrayList<>();
        if (!Files.isDirectory(partitionDir)) {
            return batches;
        }
        List<Path> segments;
        try (Stream<Path> files = Files.list(partitionDir)) {
            segments = files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Path segment : segments) {
            try (FileRecords records = FileRecords.open(new File(segment.toString()), false)) {
                for (FileChannelRecordBatch batch : records.batches()) {
                    ByteBuffer bytes = ByteBuffer.allocate(batch.sizeInBytes());
                    batch.writeTo(bytes);
                    bytes.flip();
                    batches.add(new FileBatch(batch.baseOffset(), batch.partitionLeaderEpoch(), bytes));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("unreadable segment " + segment, e);
            }
        }
        return batches;
    }

    private static int epochRegressions(List<FileBatch> batches, Path dir, TopicPartition tp, List<String> examples) {
        int regressions = 0;
        int highest = -1;
        for (FileBatch batch : batches) {
            if (batch.leaderEpoch < highest) {
                regressions++;
                note(examples, tp + " in " + dir + ": batch at " + batch.baseOffset + " has leader epoch " + batch.leaderEpoch
                        + " after epoch " + highest);
            }
            highest = Math.max(highest, batch.leaderEpoch);
        }
        return regressions;
    }

    private static int firstDifference(List<ByteBuffer> a, List<ByteBuffer> b) {
        int i = 0;
        while (i < a.size() && i < b.size() && a.get(i).equals(b.get(i))) {
            i++;
        }
        return i;
    }

    private static void note(List<String> examples, String example) {
        if (examples.size() < EXAMPLES) {
            examples.add(example);
        }
    }
}
