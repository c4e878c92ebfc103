package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.MissingPolicy;
import io.tributary.hadoop.tiered.AbortedTransaction;
import io.tributary.hadoop.tiered.SegmentFile;
import io.tributary.hadoop.tiered.TieredLayout;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A tiered split read straight from a segment copy in the layout the broker writes, built here with kafka-clients'
 * record classes: batches 100..104 (plain), 105 (a transaction of producer 7), 106 (its ABORT marker), 107..109
 * (plain, gzip), and an offset index whose one entry points at offset 105.
 */
class TieredRangeReaderTest {
    private static final long BASE = 100;
    private static final String LOCATION = "00000000000000000100-abcd1234";

    @TempDir
    java.nio.file.Path dir;

    private FileSystem fs;
    private TieredLayout layout;
    private int transactionPosition;

    @BeforeEach
    void writeCopy() throws IOException {
        fs = FileSystem.getLocal(new Configuration()).getRawFileSystem();
        layout = new TieredLayout(new Path(dir.toUri()));
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        for (long offset = BASE; offset < 105; offset++) {
            write(log, batch(Compression.NONE, offset, RecordBatch.NO_PRODUCER_ID, "plain-" + offset));
        }
        transactionPosition = log.size();
        write(log, MemoryRecords.withTransactionalRecords(105, Compression.NONE, 7L, (short) 0, 0, 0,
            new SimpleRecord(1L, null, "aborted".getBytes(StandardCharsets.UTF_8))));
        write(log, MemoryRecords.withEndTransactionMarker(106, 2L, 0, 7L, (short) 0,
            new EndTransactionMarker(ControlRecordType.ABORT, 0)));
        write(log, batch(Compression.gzip().build(), 107, RecordBatch.NO_PRODUCER_ID, "zipped-107", "zipped-108", "zipped-109"));
        java.nio.file.Path copy = Files.createDirectories(dir.resolve("events-0").resolve(LOCATION));
        Files.write(copy.resolve(SegmentFile.offsetName(BASE) + ".log"), log.toByteArray());
        Files.write(copy.resolve(SegmentFile.offsetName(BASE) + ".index"), ByteBuffer.allocate(8).putInt(5).putInt(transactionPosition).array());
    }

    private static MemoryRecords batch(Compression compression, long baseOffset, long producerId, String... values) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(1024), RecordBatch.MAGIC_VALUE_V2, compression,
            TimestampType.CREATE_TIME, baseOffset);
        for (String value : values) {
            builder.append(new SimpleRecord(1_700_000_000_000L, ("k-" + value).getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8)));
        }
        return builder.build();
    }

    private static void write(ByteArrayOutputStream out, MemoryRecords records) {
        ByteBuffer buffer = records.buffer();
        out.write(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
    }

    private List<ConsumerRecord<byte[], byte[]>> read(long start, long end, IsolationLevel isolation, List<AbortedTransaction> aborted,
                                                       String location, MissingPolicy onMissing) throws IOException {
        TieredSplit split = new TieredSplit("events", List.of(new TieredSplit.CopyRange(location, BASE, new OffsetRange(0, start, end))),
            List.of(), 0, aborted);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (TieredRangeReader reader = new TieredRangeReader(fs, layout, split, isolation, RecordPreparer.NONE, onMissing)) {
            while (reader.next()) {
                records.add(reader.current());
            }
            assertThat(reader.progress()).isEqualTo(1f);
        }
        return records;
    }

    private static List<String> values(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> r.offset() + "=" + new String(r.value(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void readsExactlyItsRangeAsAConsumerSeesItWithoutControlRecords() throws IOException {
        List<ConsumerRecord<byte[], byte[]>> records = read(102, 109, IsolationLevel.READ_UNCOMMITTED, List.of(), LOCATION,
            MissingPolicy.FAIL);

        assertThat(values(records)).containsExactly("102=plain-102", "103=plain-103", "104=plain-104", "105=aborted",
            "107=zipped-107", "108=zipped-108");
        assertThat(records.get(0).key()).asString(StandardCharsets.UTF_8).isEqualTo("k-plain-102");
        assertThat(records.get(0).timestamp()).isEqualTo(1_700_000_000_000L);
        assertThat(records.get(0).timestampType()).isEqualTo(TimestampType.CREATE_TIME);
    }

    @Test
    void readCommittedLeavesTheAbortedTransactionsOut() throws IOException {
        List<ConsumerRecord<byte[], byte[]>> records = read(105, 110, IsolationLevel.READ_COMMITTED,
            List.of(new AbortedTransaction(7, 105, 106, 105)), LOCATION, MissingPolicy.FAIL);

        assertThat(values(records)).containsExactly("107=zipped-107", "108=zipped-108", "109=zipped-109");
    }

    @Test
    void aBatchThatFailsItsCrcIsAnErrorNamingTheCopy() throws IOException {
        java.nio.file.Path logFile = dir.resolve("events-0").resolve(LOCATION).resolve(SegmentFile.offsetName(BASE) + ".log");
        byte[] bytes = Files.readAllBytes(logFile);
        bytes[transactionPosition - 5] ^= 0x01; // the value of the record at 104
        Files.write(logFile, bytes);

        assertThatThrownBy(() -> read(100, 110, IsolationLevel.READ_UNCOMMITTED, List.of(), LOCATION, MissingPolicy.FAIL))
            .isInstanceOf(CorruptRecordException.class)
            .hasMessage("The tiered copy " + LOCATION + " of events-0 is corrupt: the batch at offset 104 fails its CRC");
    }

    @Test
    void aCopyRetentionDeletedIsALostRange() throws IOException {
        assertThatThrownBy(() -> read(100, 110, IsolationLevel.READ_UNCOMMITTED, List.of(), TieredSplitPlanner.NO_COPY, MissingPolicy.FAIL))
            .isInstanceOf(LostRangeException.class).hasMessageContaining("events-0 offsets [100, 110)");

        TieredSplit split = new TieredSplit("events", List.of(new TieredSplit.CopyRange(TieredSplitPlanner.NO_COPY, BASE,
            new OffsetRange(0, 100, 110))), List.of(), 0, List.of());
        try (TieredRangeReader reader = new TieredRangeReader(fs, layout, split, IsolationLevel.READ_UNCOMMITTED, RecordPreparer.NONE,
            MissingPolicy.SKIP)) {
            assertThat(reader.next()).isFalse();
            assertThat(reader.lostRanges()).singleElement().satisfies(lost -> assertThat(lost.start()).isEqualTo(100));
        }
    }

    @Test
    void aSplitOfSeveralCopiesReadsThemInOrderAndReportsTheOneThatIsGone() throws IOException {
        TieredSplit split = new TieredSplit("events", List.of(
            new TieredSplit.CopyRange(LOCATION, BASE, new OffsetRange(0, 100, 103)),
            new TieredSplit.CopyRange(TieredSplitPlanner.NO_COPY, 103, new OffsetRange(0, 103, 105)),
            new TieredSplit.CopyRange(LOCATION, BASE, new OffsetRange(0, 105, 110))), List.of(), 0, List.of());
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (TieredRangeReader reader = new TieredRangeReader(fs, layout, split, IsolationLevel.READ_UNCOMMITTED, RecordPreparer.NONE,
            MissingPolicy.SKIP)) {
            while (reader.next()) {
                records.add(reader.current());
            }
            assertThat(reader.progress()).isEqualTo(1f);
            assertThat(reader.lostRanges()).singleElement().satisfies(lost -> assertThat(lost.start()).isEqualTo(103));
        }

        assertThat(values(records)).containsExactly("100=plain-100", "101=plain-101", "102=plain-102", "105=aborted",
            "107=zipped-107", "108=zipped-108", "109=zipped-109");
    }

    @Test
    void aSplitSurvivesItsWritableRoundTrip() throws IOException {
        TieredSplit split = new TieredSplit("events", List.of(new TieredSplit.CopyRange(LOCATION, BASE, new OffsetRange(3, 100, 110)),
            new TieredSplit.CopyRange("00000000000000000110-0000ffff", 110, new OffsetRange(3, 110, 120))), List.of("dn1", "dn2"), 4096,
            List.of(new AbortedTransaction(7, 105, 106, 105)));
        org.apache.hadoop.io.DataOutputBuffer out = new org.apache.hadoop.io.DataOutputBuffer();
        split.write(out);
        TieredSplit read = new TieredSplit();
        org.apache.hadoop.io.DataInputBuffer in = new org.apache.hadoop.io.DataInputBuffer();
        in.reset(out.getData(), out.getLength());
        read.readFields(in);

        assertThat(read).isEqualTo(split);
        assertThat(read.range()).isEqualTo(new OffsetRange(3, 100, 120));
        assertThat(read.getLocations()).containsExactly("dn1", "dn2");
        assertThat(read.getLength()).isEqualTo(4096);
    }
}
