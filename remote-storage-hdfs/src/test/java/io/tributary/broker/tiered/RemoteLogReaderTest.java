package io.tributary.broker.tiered;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import io.tributary.broker.log.AbortedTxn;
import io.tributary.broker.log.AppendOrigin;
import io.tributary.broker.log.ClosedSegment;
import io.tributary.broker.log.remote.RemoteLogMetadata;
import io.tributary.broker.log.remote.RemoteLogReader;
import io.tributary.broker.log.remote.RemoteLogReader.RemoteRead;
import io.tributary.hadoop.tiered.SegmentFile;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads of a tiered log's remote part (this module's storage on the local filesystem): whole batches from the copy
 * holding the offset, the CRC of each checked, and for read_committed the aborted transactions, also those whose
 * markers lie in later copies or beyond the remote part. Segments of 4 batches.
 */
@Timeout(60)
class RemoteLogReaderTest {
    private static final long PRODUCER_A = 7;
    private static final long PRODUCER_B = 8;

    @TempDir
    Path dir;

    private final org.apache.hadoop.fs.FileSystem localFs = localFileSystem();
    private HdfsRemoteStorage storage;
    private TieredBroker broker;
    private RemoteLogReader reader;

    @BeforeEach
    void start() throws Exception {
        storage = HdfsRemoteStorage.open(dir.resolve("remote").toUri().toString());
        broker = new TieredBroker(dir.resolve("broker"), storage, 4 * TieredBroker.BATCH_BYTES, Map.of());
        reader = new RemoteLogReader(storage, broker.remote, 2);
    }

    private static org.apache.hadoop.fs.FileSystem localFileSystem() {
        try {
            return org.apache.hadoop.fs.FileSystem.getLocal(new org.apache.hadoop.conf.Configuration());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @AfterEach
    void stop() throws Exception {
        reader.close();
        broker.close();
        storage.close();
    }

    private RemoteLogMetadata copyClosedSegments() {
        List<ClosedSegment> closed = broker.log.closedSegments();
        long end = closed.get(closed.size() - 1).endOffset();
        broker.remote.becameLeader(TieredBroker.TP, 0);
        return Awaitility.await("copied").atMost(Duration.ofSeconds(30)).until(() -> storage.metadata(TieredBroker.TP),
                metadata -> metadata.endOffset() == end);
    }

    private RemoteRead read(long offset, int maxBytes, boolean minOneBatch, boolean readCommitted) throws Exception {
        return reader.read(broker.log, offset, maxBytes, minOneBatch, Long.MAX_VALUE, readCommitted).get();
    }

    private static List<Long> offsets(RemoteRead read) {
        List<Long> offsets = new ArrayList<>();
        read.records().batches().forEach(batch -> batch.forEach(record -> offsets.add(record.offset())));
        return offsets;
    }

    @Test
    void aReadReturnsWholeBatchesFromTheOneHoldingTheOffsetWithinItsCopy() throws Exception {
        broker.append(10); // copies [0, 4), [4, 8)
        copyClosedSegments();

        assertThat(offsets(read(5, 10_000, true, false))).containsExactly(5L, 6L, 7L);
        assertThat(offsets(read(1, 2 * TieredBroker.BATCH_BYTES, true, false))).containsExactly(1L, 2L);
        assertThat(offsets(read(1, 10, true, false))).as("at least one batch").containsExactly(1L);
        assertThat(offsets(read(1, 10, false, false))).isEmpty();
        assertThat(reader.read(broker.log, 0, 10_000, true, 2, false).get().records().batches())
                .as("up to the limit").hasSize(2);
    }

    @Test
    void aCopyWrittenCorruptIsRefusedNamingItAndNothingOfItIsServed() throws Exception {
        broker.append(10);
        String location = copyClosedSegments().segments().get(0).location();
        org.apache.hadoop.fs.Path copy = copyLog(location);
        byte[] bytes = readAll(copy);
        bytes[2 * TieredBroker.BATCH_BYTES - 10] ^= 0x01; // in the value of the second batch's record
        try (var out = localFs.create(copy, true)) { // with checksums that match: as if it had been copied so
            out.write(bytes);
        }

        assertThatThrownBy(() -> read(0, 10_000, true, false)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(CorruptRecordException.class)
                .hasMessageContaining("The remote copy " + location + " of events-0 is corrupt: the batch at offset 1 fails its CRC");
        assertThat(offsets(read(4, 10_000, true, false))).as("the other copies are served").containsExactly(4L, 5L, 6L, 7L);
    }

    @Test
    void aCopyTheFileSystemFindsCorruptIsRefusedToo() throws Exception {
        broker.append(10);
        String location = copyClosedSegments().segments().get(0).location();
        Path copy = Path.of(copyLog(location).toUri());
        byte[] bytes = Files.readAllBytes(copy);
        bytes[2 * TieredBroker.BATCH_BYTES - 10] ^= 0x01; // under the file system's own checksum
        Files.write(copy, bytes);

        assertThatThrownBy(() -> read(0, 10_000, true, false)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(CorruptRecordException.class).hasMessageContaining(location);
    }

    private org.apache.hadoop.fs.Path copyLog(String location) {
        return new org.apache.hadoop.fs.Path(dir.resolve("remote/events-0").resolve(location).resolve(SegmentFile.offsetName(0) + ".log")
                .toUri());
    }

    private byte[] readAll(org.apache.hadoop.fs.Path file) throws Exception {
        try (var in = localFs.open(file)) {
            return in.readAllBytes();
        }
    }

    @Test
    void readCommittedGetsTheAbortedTransactionsWhereverTheirMarkersLie() throws Exception {
        transactional(PRODUCER_A);                   // offset 0
        transactional(PRODUCER_B);                   // 1
        broker.append(3);                            // 2..4
        marker(PRODUCER_A, ControlRecordType.ABORT); // 5, in the second copy
        broker.append(4);                            // 6..9: the second copy ends at 8
        marker(PRODUCER_B, ControlRecordType.ABORT); // 10, local only
        RemoteLogMetadata metadata = copyClosedSegments();
        assertThat(metadata.endOffset()).as("A's marker copied, B's not").isBetween(6L, 10L);

        RemoteRead committed = read(0, 10_000, true, true);

        assertThat(offsets(committed)).as("the first copy, the transactions' records among them").startsWith(0L, 1L, 2L);
        assertThat(committed.abortedTxns()).extracting(AbortedTxn::producerId).containsExactlyInAnyOrder(PRODUCER_A, PRODUCER_B);
        assertThat(read(0, 10_000, true, false).abortedTxns()).isEmpty();
    }

    private void transactional(long producerId) {
        broker.appender.append(broker.log, MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, (short) 0, 0,
                new SimpleRecord("t".getBytes(StandardCharsets.UTF_8))), 0);
    }

    private void marker(long producerId, ControlRecordType type) {
        broker.appender.append(broker.log, MemoryRecords.withEndTransactionMarker(System.currentTimeMillis(), producerId,
                (short) 0, new EndTransactionMarker(type, 0)), 0, AppendOrigin.COORDINATOR);
    }
}
