package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.tools.DumpLogSegments;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Kafka's own {@code DumpLogSegments --deep-iteration} reads the segments and indexes we write and finds
 * every offset, no invalid batch and no index mismatch: the files are byte-compatible with Kafka's.
 */
class DumpLogSegmentsIT {

    private static final List<String> KAFKA_ERRORS = List.of("Mismatches in", "timestamp mismatch",
            "out of order timestamp", "invalid bytes", "Non-consecutive offsets", "Error at",
            "are not found in", "Indexed offset:", "isvalid: false", "Exception");

    @TempDir
    Path root;

    @BeforeEach
    void failInsteadOfExiting() {
        Exit.setExitProcedure((code, message) -> {
            throw new AssertionError("DumpLogSegments exited with " + code + ": " + message);
        });
    }

    @AfterEach
    void restoreExit() {
        Exit.resetExitProcedure();
    }

    @Test
    void kafkaVerifiesEveryOffsetAndIndexEntryOfOurSegments() throws Exception {
        LogFixture fixture = new LogFixture(root, Map.of(LogConfig.SEGMENT_BYTES, "8000",
                LogConfig.INDEX_INTERVAL_BYTES, "1024"));
        PartitionLog log = fixture.open();
        CompressionType[] codecs = {CompressionType.NONE, CompressionType.GZIP, CompressionType.SNAPPY,
                CompressionType.LZ4, CompressionType.ZSTD};
        long next = 0;
        for (int i = 0; i < 60; i++) {
            int count = i % 7 == 0 ? 1 : 10 + i % 13;
            Compression compression = Compression.of(codecs[i % codecs.length]).build();
            log.appendAsLeader(TestRecords.batch(compression, count, 100, fixture.time.milliseconds() + i * 10L,
                    next), 3);
            next += count;
        }
        List<LogSegment> segments = log.segments();
        assertThat(segments).hasSizeGreaterThan(2);
        log.close();

        List<Long> offsetsSeen = new ArrayList<>();
        int indexEntriesSeen = 0;
        int timeEntriesSeen = 0;
        for (LogSegment segment : segments) {
            String output = dump(log.dir(), segment.baseOffset());
            assertThat(output).doesNotContain(KAFKA_ERRORS);
            assertThat(output).contains("isvalid: true");
            offsetsSeen.addAll(numbersAfter("| offset: ", output));
            indexEntriesSeen += count("(?m)^offset: \\d+ position: \\d+$", output);
            timeEntriesSeen += count("(?m)^timestamp: \\d+ offset: \\d+$", output);
        }
        assertThat(offsetsSeen).isEqualTo(LongStream.range(0, next).boxed().toList());
        assertThat(indexEntriesSeen).isEqualTo(segments.stream().mapToInt(s -> s.offsetIndex().entries()).sum())
                .isPositive();
        assertThat(timeEntriesSeen).isEqualTo(segments.stream().mapToInt(s -> s.timeIndex().entries()).sum())
                .isPositive();
    }

    private static String dump(Path dir, long baseOffset) throws Exception {
        String files = SegmentFiles.log(dir, baseOffset) + "," + SegmentFiles.offsetIndex(dir, baseOffset) + ","
                + SegmentFiles.timeIndex(dir, baseOffset);
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            DumpLogSegments.main(new String[] {"--files", files, "--deep-iteration"});
        } finally {
            System.setOut(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static List<Long> numbersAfter(String prefix, String text) {
        List<Long> numbers = new ArrayList<>();
        Matcher m = Pattern.compile(Pattern.quote(prefix) + "(\\d+)").matcher(text);
        while (m.find()) {
            numbers.add(Long.parseLong(m.group(1)));
        }
        return numbers;
    }

    private static int count(String regex, String text) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
