package io.tributary.consumer.cli;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.Record;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a log segment file ({@code <20-digit base offset>.log}, a sequence of record batches)
 * with kafka-clients' {@link FileRecords}, prints one line per batch (and per record if asked)
 * and checks it: every batch's CRC, offsets that never go backwards (nor below the base offset
 * in the file name), and no trailing bytes that do not form a whole batch.
 */
final class SegmentDump {
    private static final Pattern SEGMENT_NAME = Pattern.compile("(\\d{20})\\.log");

    private final Path file;
    private final boolean printRecords;
    private final PrintWriter out;

    /** What the dump found. */
    record Summary(int batches, long records, List<String> problems) {
        @Override
        public String toString() {
            return "Dumped " + batches + " batch(es), " + records + " record(s): "
                    + (problems.isEmpty() ? "no problems" : problems.size() + " problem(s)");
        }
    }

    SegmentDump(Path file, boolean printRecords, PrintWriter out) {
        this.file = file;
        this.printRecords = printRecords;
        this.out = out;
    }

    Summary run() throws IOException {
        List<String> problems = new ArrayList<>();
        int batches = 0;
        long records = 0;
        Matcher name = SEGMENT_NAME.matcher(file.getFileName().toString());
        long nextOffset = name.matches() ? Long.parseLong(name.group(1)) : 0;
        out.println("Dumping " + file);
        try (FileRecords segment = FileRecords.open(file.toFile(), false)) {
            int end = 0;
            Iterator<FileChannelRecordBatch> iterator = segment.batchIterator();
            while (true) {
                FileChannelRecordBatch batch;
                try {
                    if (!iterator.hasNext()) {
                        break;
                    }
                    batch = iterator.next();
                } catch (KafkaException unreadable) {
                    problems.add("unreadable batch at byte " + end + ": " + unreadable.getMessage());
                    break;
                }
                batches++;
                boolean valid = batch.isValid();
                printBatch(batch, valid);
                if (!valid) {
                    problems.add("CRC mismatch in the batch at byte " + batch.position());
                } else {
                    records += printRecords ? printRecords(batch) : count(batch);
                }
                if (batch.baseOffset() < nextOffset) {
                    problems.add("the batch at byte " + batch.position() + " starts at offset " + batch.baseOffset()
                            + ", below the expected " + nextOffset);
                }
                nextOffset = Math.max(nextOffset, batch.nextOffset());
                end = batch.position() + batch.sizeInBytes();
            }
            if (problems.isEmpty() && end < segment.sizeInBytes()) {
                problems.add((segment.sizeInBytes() - end) + " trailing byte(s) at byte " + end
                        + " do not form a complete batch");
            }
        }
        return new Summary(batches, records, List.copyOf(problems));
    }

    private void printBatch(FileChannelRecordBatch batch, boolean valid) {
        out.printf("baseOffset: %d lastOffset: %d count: %s position: %d %s: %d size: %d magic: %d "
                        + "compresscodec: %s producerId: %d isTransactional: %b isControl: %b crc: %d isvalid: %b%n",
                batch.baseOffset(), batch.lastOffset(), batch.countOrNull() == null ? "?" : batch.countOrNull(),
                batch.position(), batch.timestampType(), batch.maxTimestamp(), batch.sizeInBytes(), batch.magic(),
                batch.compressionType().name, batch.producerId(), batch.isTransactional(), batch.isControlBatch(),
                batch.checksum(), valid);
    }

    private static long count(FileChannelRecordBatch batch) {
        if (batch.countOrNull() != null) {
            return batch.countOrNull();
        }
        long count = 0;
        for (Iterator<Record> it = batch.iterator(); it.hasNext(); it.next()) {
            count++;
        }
        return count;
    }

    private long printRecords(FileChannelRecordBatch batch) {
        long count = 0;
        for (Record record : batch) {
            out.printf("| offset: %d %s: %d keySize: %d valueSize: %d headerKeys: %s key: %s payload: %s%n",
                    record.offset(), batch.timestampType(), record.timestamp(), record.keySize(), record.valueSize(),
                    Arrays.stream(record.headers()).map(Header::key).toList(), utf8(record.key()), utf8(record.value()));
            count++;
        }
        return count;
    }

    private static String utf8(ByteBuffer buffer) {
        if (buffer == null) {
            return "null";
        }
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
