package io.tributary.broker.tiered;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.log.ClosedSegment;
import io.tributary.broker.log.ClosedSegmentFiles;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.log.remote.RemoteAuxState;
import io.tributary.broker.log.remote.RemoteFile;
import io.tributary.broker.log.remote.RemoteLogMetadata;
import io.tributary.broker.log.remote.RemoteSegment;
import io.tributary.broker.log.remote.RemoteStorage;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Records;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The remote log tasks over real partition logs and this module's storage on the local filesystem ({@code file://}):
 * two "brokers" (log managers) with the same records in differently cut segments take turns leading one partition.
 * Batches of one 100-byte record; every copy is synced to disk, so each test copies only a few segments.
 */
@Timeout(60)
class RemoteLogManagerTest {
    private static final TopicPartition TP = TieredBroker.TP;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private HdfsRemoteStorage storage;
    private final Map<String, TieredBroker> brokers = new ConcurrentHashMap<>();

    @BeforeEach
    void openStorage() throws Exception {
        storage = HdfsRemoteStorage.open(dir.resolve("remote").toUri().toString());
    }

    @AfterEach
    void close() throws Exception {
        for (TieredBroker broker : brokers.values()) {
            broker.close();
        }
        storage.close();
    }

    private TieredBroker broker(String name, int segmentBatches, Map<String, String> overrides) throws Exception {
        return broker(name, storage, segmentBatches, overrides);
    }

    private TieredBroker broker(String name, RemoteStorage storage, int segmentBatches, Map<String, String> overrides) {
        TieredBroker broker = new TieredBroker(dir.resolve(name), storage, segmentBatches * TieredBroker.BATCH_BYTES, overrides);
        brokers.put(name, broker);
        return broker;
    }

    private RemoteLogMetadata awaitRemoteEnd(long atLeast) {
        return Awaitility.await("remote end " + atLeast).atMost(WAIT).until(() -> storage.metadata(TP),
                metadata -> metadata.endOffset() >= atLeast);
    }

    private static void assertContiguousFrom(long start, RemoteLogMetadata metadata) {
        long next = start;
        for (RemoteSegment segment : metadata.segments()) {
            assertThat(segment.startOffset()).isEqualTo(next);
            next = segment.endOffset();
        }
        assertThat(next).isEqualTo(metadata.endOffset());
    }

    /** The end of the last closed segment: where the remote part ends once everything is copied. */
    private static long closedEnd(TieredBroker broker) {
        List<ClosedSegment> closed = broker.log.closedSegments();
        return closed.get(closed.size() - 1).endOffset();
    }

    @Test
    void theLeaderCopiesClosedSegmentsAndLocalRetentionDeletesWhatIsListed() throws Exception {
        TieredBroker a = broker("a", 10, Map.of(LogConfig.LOCAL_RETENTION_BYTES, String.valueOf(10 * TieredBroker.BATCH_BYTES)));
        a.append(35);
        a.remote.becameLeader(TP, 0);

        RemoteLogMetadata metadata = awaitRemoteEnd(closedEnd(a));
        assertContiguousFrom(0, metadata);
        assertThat(metadata.leaderEpoch()).isZero();
        Awaitility.await("local retention").atMost(WAIT).until(() -> a.log.size() <= 10 * TieredBroker.BATCH_BYTES + a.log.sizeFrom(closedEnd(a)));
        assertThat(a.log.localLogStartOffset()).isPositive();
        assertThat(a.log.logStartOffset()).isZero();
    }

    @Test
    void aCopysProducerSnapshotIsInKafkasFormatWhichDumpLogSegmentsReads(@TempDir Path local) throws Exception {
        TieredBroker a = broker("a", 10, Map.of());
        a.append(3);
        a.appendOfProducer(42, (short) 3, 0, false);
        a.appendOfProducer(42, (short) 3, 2, false);
        long lastOffsetOf42 = a.log.logEndOffset() - 1;
        long txnFirstOffset = a.log.logEndOffset();
        a.appendOfProducer(7, (short) 1, 0, true); // its transaction is still open at the first copy's end
        a.append(20);
        a.remote.becameLeader(TP, 0);

        RemoteSegment first = awaitRemoteEnd(closedEnd(a)).segments().get(0);
        assertThat(first.producerSnapshot()).isTrue();
        assertThat(first.endOffset()).isGreaterThan(txnFirstOffset + 1);
        Path snapshot = local.resolve(String.format("%020d.snapshot", first.endOffset()));
        ByteBuffer bytes = storage.read(TP, first, RemoteFile.PRODUCER_SNAPSHOT, 0, 1 << 16);
        byte[] copied = new byte[bytes.remaining()];
        bytes.get(copied);
        java.nio.file.Files.write(snapshot, copied);

        String dump = KafkaTools.dumpLogSegments(snapshot);
        assertThat(dump).doesNotContain("invalid", "Exception").contains(
                "producerId: 42 producerEpoch: 3 coordinatorEpoch: -1 currentTxnFirstOffset: OptionalLong.empty ",
                " firstSequence: 2 lastSequence: 3 lastOffset: " + lastOffsetOf42 + " offsetDelta: 1 ",
                "producerId: 7 producerEpoch: 1 coordinatorEpoch: -1 currentTxnFirstOffset: OptionalLong[" + txnFirstOffset + "]");
    }

    @Test
    void aReplicaRestartingAboveTheRemotePartTakesTheProducersAndLeaderEpochsOfTheCopyBelow() throws Exception {
        TieredBroker a = broker("a", 10, Map.of());
        a.appendOfProducer(42, (short) 3, 0, false);
        a.append(25);
        a.remote.becameLeader(TP, 0);
        RemoteSegment second = awaitRemoteEnd(closedEnd(a)).segments().get(1);

        assertThat(RemoteAuxState.below(storage, TP, 0, 0)).as("nothing below the log start").isEmpty();
        assertThat(RemoteAuxState.below(storage, TP, second.startOffset() + 1, 0)).as("within a copy: from its end on")
                .hasValueSatisfying(state -> assertThat(state.startOffset()).isEqualTo(second.endOffset()));
        RemoteAuxState below = RemoteAuxState.below(storage, TP, second.endOffset(), 0).orElseThrow();
        assertThat(below.startOffset()).isEqualTo(second.endOffset());
        assertThat(below.leaderEpochs()).containsExactly(Map.entry(0, 0L));

        Path copy = dir.resolve("remote").resolve(TP.toString()).resolve(second.location());
        java.nio.file.Files.delete(copy.resolve(".leader-epoch-checkpoint.crc")); // the local file system's checksum
        java.nio.file.Files.writeString(copy.resolve("leader-epoch-checkpoint"), "0\n2\n0 0\n"); // two entries announced, one there
        assertThat(RemoteAuxState.below(storage, TP, second.endOffset(), 0)).as("the epochs the metadata lists instead")
                .hasValueSatisfying(state -> assertThat(state.leaderEpochs()).containsExactly(Map.entry(0, 0L)));

        TieredBroker b = broker("b", 10, Map.of());
        b.log.truncateFullyAndStartAt(below.startOffset());
        b.appender.restartAt(b.log, below.startOffset(), below.producerSnapshot());
        assertThat(b.appender.activeProducers(b.log)).singleElement().satisfies(producer -> {
            assertThat(producer.producerId()).isEqualTo(42);
            assertThat(producer.epoch()).isEqualTo((short) 3);
            assertThat(producer.lastSequence()).isEqualTo(1);
        });
    }

    @Test
    void anUnusableOrMissingProducerSnapshotBelowTheRestartIsRebuiltFromTheCopyBeforeAndTheCopysBatchesElseNamedInTheError()
            throws Exception {
        TieredBroker a = broker("a", 10, Map.of());
        a.appendOfProducer(7, (short) 1, 0, true); // its transaction opens in the first copy and is aborted in the second
        a.append(12);
        a.appendOfProducer(42, (short) 3, 0, false);
        a.appendOfProducer(7, (short) 1, 2, true);
        a.appendAbortMarker(7, (short) 1);
        a.appendOfProducer(99, (short) 0, 0, true); // open at the second copy's end
        long open = a.log.logEndOffset() - 2;
        a.append(20);
        a.remote.becameLeader(TP, 0);
        RemoteLogMetadata metadata = awaitRemoteEnd(closedEnd(a));
        RemoteSegment first = metadata.segments().get(0);
        RemoteSegment second = metadata.segments().get(1);
        assertThat(second.endOffset()).as("everything above in the second copy").isGreaterThan(open + 1);
        List<List<Long>> expected = producersAfterRestart("b", RemoteAuxState.below(storage, TP, second.endOffset(), 0).orElseThrow());
        assertThat(expected).as("producer, epoch, last sequence, coordinator epoch, open transaction's first offset")
                .containsExactlyInAnyOrder(List.of(7L, 1L, 3L, 1L, -1L), List.of(42L, 3L, 1L, -1L, -1L),
                        List.of(99L, 0L, 1L, -1L, open));

        Path copies = dir.resolve("remote").resolve(TP.toString());
        String snapshot = String.format("%020d.snapshot", second.endOffset());
        java.nio.file.Files.delete(copies.resolve(second.location()).resolve("." + snapshot + ".crc"));
        java.nio.file.Files.write(copies.resolve(second.location()).resolve(snapshot), new byte[] {0, 1, 0, 0, 0, 0, 0, 0, 0, 1});
        RemoteAuxState rebuilt = RemoteAuxState.below(storage, TP, second.endOffset(), System.currentTimeMillis())
                .orElseThrow();
        assertThat(rebuilt.startOffset()).isEqualTo(second.endOffset());
        assertThat(producersAfterRestart("c", rebuilt)).as("rebuilt from the first copy's snapshot and the second's batches")
                .containsExactlyInAnyOrderElementsOf(expected);

        a.remote.resigned(TP); // so that nothing but this test commits
        RemoteLogMetadata listed = storage.metadata(TP);
        List<RemoteSegment> segments = new java.util.ArrayList<>(listed.segments());
        segments.set(1, new RemoteSegment(second.baseOffset(), second.startOffset(), second.endOffset(), second.sizeInBytes(),
                second.maxTimestamp(), second.leaderEpochs(), second.location(), second.txnIndex(), false));
        assertThat(storage.commit(TP, listed, new RemoteLogMetadata(listed.version(), listed.leaderEpoch(),
                listed.logStartOffset(), listed.endOffset(), segments, listed.abortedAcrossEnd()))).isNotNull();
        assertThat(producersAfterRestart("d", RemoteAuxState.below(storage, TP, second.endOffset(), System.currentTimeMillis())
                .orElseThrow())).as("a copy listed without a snapshot: rebuilt too").containsExactlyInAnyOrderElementsOf(expected);

        java.nio.file.Files.delete(copies.resolve(first.location()).resolve(String.format("%020d.snapshot", first.endOffset())));
        assertThatThrownBy(() -> RemoteAuxState.below(storage, TP, second.endOffset(), 0)).isInstanceOf(IOException.class)
                .hasMessageStartingWith("the remote copy " + second.location() + " has no producer snapshot")
                .hasMessageContaining("; nor can it be rebuilt from the copy right before it: the producer snapshot "
                        + first.location() + "/" + String.format("%020d.snapshot", first.endOffset()) + " cannot be read (");
    }

    /** The producers of a new log restarting at {@code state} in broker {@code name}, each without its write time. */
    private List<List<Long>> producersAfterRestart(String name, RemoteAuxState state) {
        TieredBroker broker = broker(name, storage, 10, Map.of());
        broker.log.truncateFullyAndStartAt(state.startOffset());
        broker.appender.restartAt(broker.log, state.startOffset(), state.producerSnapshot());
        return broker.appender.activeProducers(broker.log).stream().map(p -> List.of(p.producerId(), (long) p.epoch(),
                (long) p.lastSequence(), (long) p.coordinatorEpoch(), p.currentTxnStartOffset())).toList();
    }

    @Test
    void remoteRetentionDeletesTheOldestCopiesByTheWholeLogsSize() throws Exception {
        TieredBroker a = broker("a", 10, Map.of(LogConfig.LOCAL_RETENTION_BYTES, String.valueOf(10 * TieredBroker.BATCH_BYTES),
                LogConfig.RETENTION_BYTES, String.valueOf(40 * TieredBroker.BATCH_BYTES)));
        a.append(95);
        a.remote.becameLeader(TP, 0);

        awaitRemoteEnd(closedEnd(a));
        Awaitility.await("remote retention").atMost(WAIT).until(() -> a.log.logStartOffset() > 0);
        RemoteLogMetadata metadata = storage.metadata(TP);
        assertThat(metadata.segments()).hasSizeBetween(3, 4);
        assertContiguousFrom(metadata.startOffset(), metadata);
        Awaitility.await("the expired copies deleted").atMost(WAIT).until(() -> new java.util.HashSet<>(storage.locations(TP))
                .equals(new java.util.HashSet<>(storage.metadata(TP).segments().stream().map(RemoteSegment::location).toList())));
    }

    @Test
    void aNewLeaderWhoseSegmentsEndElsewhereGoesOnFromTheRemoteEndWithNoGapAndNoOverlap() throws Exception {
        TieredBroker a = broker("a", 10, Map.of());
        TieredBroker b = broker("b", 8, Map.of());
        a.append(25);
        b.append(25);
        a.remote.becameLeader(TP, 0);
        long copiedByA = awaitRemoteEnd(closedEnd(a)).endOffset();
        a.remote.resigned(TP);

        a.append(15);
        b.append(15);
        assertThat(b.log.closedSegments()).extracting(ClosedSegment::baseOffset)
                .as("b's segments start elsewhere than a's copies end").doesNotContain(copiedByA);
        b.remote.becameLeader(TP, 1);

        RemoteLogMetadata metadata = awaitRemoteEnd(closedEnd(b));
        assertContiguousFrom(0, metadata);
        assertThat(metadata.leaderEpoch()).isEqualTo(1);
        RemoteSegment overlapping = metadata.segments().stream().filter(segment -> segment.startOffset() == copiedByA)
                .findFirst().orElseThrow();
        assertThat(overlapping.baseOffset()).as("b's segment holding a's end, copied whole, served from a's end")
                .isLessThan(copiedByA);
        Awaitility.await("the former leader's local retention follows the remote part").atMost(WAIT)
                .until(() -> a.log.remoteLogEndOffset() == metadata.endOffset());
    }

    @Test
    void aLeaderOfAnOlderEpochIsFencedAndNothingItCopiesIsListed() throws Exception {
        TieredBroker a = broker("a", 10, Map.of());
        TieredBroker b = broker("b", 10, Map.of(LogConfig.REMOTE_LOG_COPY_DISABLE, "true"));
        a.append(25);
        b.append(25);
        b.remote.becameLeader(TP, 1);
        Awaitility.await("b's claim").atMost(WAIT).until(() -> storage.metadata(TP).leaderEpoch() == 1);

        a.remote.becameLeader(TP, 0); // a zombie: it has not heard of epoch 1 yet

        Awaitility.await("nothing of the zombie listed").during(Duration.ofMillis(800)).atMost(WAIT).until(() ->
                storage.metadata(TP).segments().isEmpty() && storage.locations(TP).isEmpty());
    }

    @Test
    void theNextLeadersClaimDeletesTheCopiesNothingLists() throws Exception {
        TieredBroker a = broker("a", 10, Map.of(LogConfig.REMOTE_LOG_COPY_DISABLE, "true"));
        a.append(25);
        ClosedSegmentFiles first = Awaitility.await("a segment to copy").atMost(WAIT)
                .until(() -> a.log.closedSegmentFiles(0, Long.MAX_VALUE), closed -> !closed.isEmpty()).get(0);
        String halfMade = storage.copy(TP, first, new byte[0], java.util.Optional.empty());
        assertThat(storage.locations(TP)).containsExactly(halfMade);

        a.remote.becameLeader(TP, 3);

        Awaitility.await("the unlisted copy deleted").atMost(WAIT).until(() -> storage.locations(TP).isEmpty()
                && storage.metadata(TP).leaderEpoch() == 3);
    }

    /**
     * A move between log dirs swaps the partition's log while a task of its leader copies: the log that took over
     * hears of that task's last commit by the next round, though nothing is left to copy (its local retention goes by
     * what it hears).
     */
    @Test
    void aLogThatTookOverInAMoveBetweenLogDirsHearsOfTheCommitOfATaskInFlight() throws Exception {
        HeldCommit held = new HeldCommit(storage, 2);
        TieredBroker a = broker("a", held, 10, Map.of());
        a.append(25);
        List<ClosedSegment> closed = a.log.closedSegments();
        try {
            a.remote.becameLeader(TP, 0);
            assertThat(held.reached.await(30, TimeUnit.SECONDS)).as("the commit of the second copy").isTrue();
            PartitionLog future = a.logs.createFuture(TP, dir.resolve("a").resolve("1"));
            copyRecords(a.log, future);
            a.logs.replaceCurrentWithFuture(TP);
            assertThat(future.remoteLogEndOffset()).as("handed over by the log it replaced").isEqualTo(closed.get(0).endOffset());
        } finally {
            held.release.countDown();
        }
        Awaitility.await("the log that took over told of the second copy").atMost(WAIT)
                .until(() -> a.logs.log(TP).orElseThrow().remoteLogEndOffset() == closed.get(1).endOffset());
    }

    /** Copies {@code from}'s records onto {@code to}, as a move between log dirs does before it swaps them. */
    private static void copyRecords(PartitionLog from, PartitionLog to) {
        while (to.logEndOffset() < from.logEndOffset()) {
            Records slice = from.read(to.logEndOffset(), 1 << 20, from.logEndOffset(), true).records();
            ByteBuffer whole = ByteBuffer.allocate(slice.sizeInBytes());
            slice.batches().forEach(batch -> batch.writeTo(whole));
            to.appendAsFollower(MemoryRecords.readableRecords(whole.flip()));
        }
    }

    /** This module's storage, but the first commit that lists {@code heldCopies} copies waits for {@link #release}. */
    private static final class HeldCommit implements RemoteStorage {
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private final RemoteStorage storage;
        private final int heldCopies;

        HeldCommit(RemoteStorage storage, int heldCopies) {
            this.storage = storage;
            this.heldCopies = heldCopies;
        }

        @Override
        public RemoteLogMetadata commit(TopicPartition tp, RemoteLogMetadata expected, RemoteLogMetadata next) throws IOException {
            if (next.segments().size() == heldCopies && reached.getCount() > 0) {
                reached.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while held");
                }
            }
            return storage.commit(tp, expected, next);
        }

        @Override
        public RemoteLogMetadata metadata(TopicPartition tp) throws IOException {
            return storage.metadata(tp);
        }

        @Override
        public String copy(TopicPartition tp, ClosedSegmentFiles segment, byte[] leaderEpochCheckpoint,
                           java.util.Optional<byte[]> producerSnapshot) throws IOException {
            return storage.copy(tp, segment, leaderEpochCheckpoint, producerSnapshot);
        }

        @Override
        public List<String> locations(TopicPartition tp) throws IOException {
            return storage.locations(tp);
        }

        @Override
        public void delete(TopicPartition tp, String location) throws IOException {
            storage.delete(tp, location);
        }

        @Override
        public ByteBuffer read(TopicPartition tp, RemoteSegment segment, RemoteFile file, long position, int length)
                throws IOException {
            return storage.read(tp, segment, file, position, length);
        }

        @Override
        public void close() {
            // the test closes the storage it wraps
        }
    }
}
