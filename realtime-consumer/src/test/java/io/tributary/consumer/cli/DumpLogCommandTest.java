package io.tributary.consumer.cli;

import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class DumpLogCommandTest {
    private static final long T0 = 1_764_000_000_000L;

    private final CliRunner cli = new CliRunner("127.0.0.1:1");

    @TempDir
    Path dir;

    /** Two batches: offsets 0-2 uncompressed, 3-4 gzip with a header. */
    private Path writeSegment() throws IOException {
        Path segment = dir.resolve("00000000000000000000.log");
        try (FileRecords records = FileRecords.open(segment.toFile())) {
            records.append(MemoryRecords.withRecords(0L, Compression.NONE,
                    record(0), record(1), record(2)));
            records.append(MemoryRecords.withRecords(3L, Compression.gzip().build(),
                    new SimpleRecord(T0 + 3, bytes("k3"), bytes("v3"),
                            new Header[] {new RecordHeader("trace", bytes("abc"))}),
                    record(4)));
            records.flush();
        }
        return segment;
    }

    private static SimpleRecord record(int i) {
        return new SimpleRecord(T0 + i, bytes("k" + i), bytes("v" + i));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void printsBatchesAndRecordsOfAValidSegment() throws IOException {
        Path segment = writeSegment();

        CliRunner.Result result = cli.runExactly("", "dump-log", segment.toString(), "--print-records");

        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(result.out())
                .contains("baseOffset: 0 lastOffset: 2 count: 3 position: 0 CreateTime: " + (T0 + 2))
                .contains("baseOffset: 3 lastOffset: 4 count: 2")
                .contains("compresscodec: gzip")
                .contains("| offset: 0 CreateTime: " + T0 + " keySize: 2 valueSize: 2 headerKeys: [] key: k0 payload: v0")
                .contains("| offset: 3 CreateTime: " + (T0 + 3) + " keySize: 2 valueSize: 2 headerKeys: [trace] key: k3 payload: v3")
                .contains("| offset: 4 ")
                .contains("Dumped 2 batch(es), 5 record(s): no problems")
                .doesNotContain("isvalid: false");
        assertThat(result.err()).isEmpty();
    }

    @Test
    void withoutPrintRecordsShowsOnlyBatches() throws IOException {
        CliRunner.Result result = cli.runExactly("", "dump-log", writeSegment().toString());

        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(result.out()).contains("baseOffset: 3").doesNotContain("| offset:")
                .contains("Dumped 2 batch(es), 5 record(s): no problems");
    }

    @Test
    void reportsACorruptedBatch() throws IOException {
        Path segment = writeSegment();
        long size = Files.size(segment);
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
            file.seek(size - 3); // inside the compressed payload of the last batch
            int b = file.read();
            file.seek(size - 3);
            file.write(b ^ 0xFF);
        }

        CliRunner.Result result = cli.runExactly("", "dump-log", segment.toString());

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(1);
        assertThat(result.out()).contains("baseOffset: 3").contains("isvalid: false");
        assertThat(result.err().lines()).singleElement().asString()
                .startsWith("tributary: ").contains("failed verification").contains("CRC mismatch");
    }

    @Test
    void reportsATruncatedTail() throws IOException {
        Path segment = writeSegment();
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
            file.setLength(file.length() - 5);
        }

        CliRunner.Result result = cli.runExactly("", "dump-log", segment.toString());

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(1);
        assertThat(result.out()).contains("baseOffset: 0").doesNotContain("baseOffset: 3");
        assertThat(result.err()).contains("trailing byte(s)").doesNotContain("\tat ");
    }

    @Test
    void reportsOffsetsBelowTheBaseOffsetInTheFileName() throws IOException {
        Path segment = writeSegment();
        Path misnamed = Files.move(segment, dir.resolve("00000000000000000100.log"));

        CliRunner.Result result = cli.runExactly("", "dump-log", misnamed.toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).contains("starts at offset 0, below the expected 100");
    }

    @Test
    void aMissingFileIsOneClearLine() {
        CliRunner.Result result = cli.runExactly("", "dump-log", dir.resolve("nope.log").toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).isEqualTo("tributary: no such segment file: " + dir.resolve("nope.log")
                + System.lineSeparator());
    }
}
