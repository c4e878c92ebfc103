package io.tributary.broker.log.remote;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.HashSet;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import io.tributary.broker.log.ClosedSegmentFiles;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.log.ProducerStateManager;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the leader of a tiered partition does with its remote part, each step one compare-and-set of the metadata:
 * <ol>
 *   <li>{@link #claim}: the first time it leads at an epoch, it commits the metadata under that epoch, which fences
 *       every older leader (a copy of theirs can no longer be listed), and deletes every unlisted copy (after the
 *       claim, only this leader could still list one; what is there was left by a crash or a fenced leader);</li>
 *   <li>{@link #copy}: each closed segment that ends at or below the last stable offset and beyond what the remote
 *       part holds is copied, then listed; a copy of a segment that starts below the remote end (this leader rolled
 *       elsewhere than the one before) serves from the remote end on, so nothing is listed twice and nothing is
 *       skipped;</li>
 *   <li>{@link #expire}: the oldest copies past retention.ms, beyond retention.bytes (over the remote part and the
 *       local segments not yet copied) or below the log start offset (DeleteRecords) are unlisted, then deleted.</li>
 * </ol>
 * A local segment is deleted only once the metadata listing its copy is committed ({@link PartitionLog#updateRemoteTier}
 * is told after each commit, and each round, for a log that took over from another in a move between log dirs). A
 * lost compare-and-set means another leader wrote: the step stops and the metadata is read again next time.
 * Stateless; the caller runs one step of a partition at a time.
 */
final class LeaderTasks {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderTasks.class);

    private final RemoteStorage storage;
    private final LeaderView leaders;
    private final Time time;

    LeaderTasks(RemoteStorage storage, LeaderView leaders, Time time) {
        this.storage = storage;
        this.leaders = leaders;
        this.time = time;
    }

    /**
     * The metadata this leadership works on, claimed at {@code epoch} if it was not yet.
     *
     * @return null if a newer leader claimed it (this broker's leadership is stale) or the claim lost a race
     */
    RemoteLogMetadata claim(TieredPartition partition, PartitionLog log, int epoch) throws IOException {
        TopicPartition tp = partition.topicPartition;
        if (partition.claimedEpoch == epoch && partition.metadata != null) {
            // Told again each round: a log that took over meanwhile (a move between log dirs) may have missed the
            // last commit, which a task in flight told the log it replaced.
            publish(partition, log, partition.metadata);
            return partition.metadata;
        }
        partition.claimedEpoch = -1;
        RemoteLogMetadata read = storage.metadata(tp);
        publish(partition, log, read);
        if (read.leaderEpoch() > epoch) {
            LOG.info("{}: the remote metadata was written at leader epoch {}, after this broker's {}; not copying", tp,
                    read.leaderEpoch(), epoch);
            return null;
        }
        RemoteLogMetadata claimed = read.leaderEpoch() == epoch ? read : storage.commit(tp, read, read.claimedBy(epoch));
        if (claimed == null) {
            partition.metadata = null;
            return null;
        }
        deleteUnlisted(tp, claimed);
        partition.claimedEpoch = epoch;
        publish(partition, log, claimed);
        return claimed;
    }

    private void deleteUnlisted(TopicPartition tp, RemoteLogMetadata metadata) throws IOException {
        Set<String> listed = new HashSet<>();
        metadata.segments().forEach(segment -> listed.add(segment.location()));
        for (String location : storage.locations(tp)) {
            if (!listed.contains(location)) {
                LOG.info("{}: deleting the unlisted remote copy {} (a crash or an older leader left it)", tp, location);
                storage.delete(tp, location);
            }
        }
    }

    /**
     * Copies and lists the closed segments up to the last stable offset, oldest first.
     *
     * @return the metadata after the last commit; null if another writer came first
     */
    RemoteLogMetadata copy(TieredPartition partition, PartitionLog log, RemoteLogMetadata metadata, int epoch)
            throws IOException {
        TopicPartition tp = partition.topicPartition;
        RemoteLogMetadata current = metadata;
        long from = current.endOffset() >= 0 ? current.endOffset() : log.logStartOffset();
        List<ClosedSegmentFiles> candidates = log.closedSegmentFiles(from, leaders.lastStableOffset(tp));
        for (ClosedSegmentFiles segment : candidates) {
            if (partition.leaderEpoch != epoch) {
                return current; // resigned meanwhile: the next leader goes on from what is listed
            }
            if (current.endOffset() >= 0 && segment.baseOffset() > current.endOffset()) {
                LOG.warn("{}: offsets [{}, {}) are neither in remote storage nor local (an unclean leader election?); "
                        + "copying on from {}", tp, current.endOffset(), segment.baseOffset(), segment.baseOffset());
            }
            long start = Math.max(segment.baseOffset(), current.endOffset());
            NavigableMap<Integer, Long> epochs = leaders.leaderEpochs(tp);
            Optional<byte[]> producerSnapshot = kafkaProducerSnapshot(segment);
            String location = storage.copy(tp, segment, LeaderEpochCheckpoint.upTo(epochs, segment.endOffset()),
                    producerSnapshot);
            RemoteSegment copied = new RemoteSegment(segment.baseOffset(), start, segment.endOffset(), segment.sizeInBytes(),
                    segment.maxTimestamp(), LeaderEpochCheckpoint.within(epochs, start, segment.endOffset()), location,
                    segment.txnIndex().isPresent(), producerSnapshot.isPresent());
            RemoteLogMetadata next = current.withSegment(copied, epoch, Math.max(current.logStartOffset(), log.logStartOffset()),
                    log.abortedTxns(segment.endOffset(), segment.endOffset()));
            RemoteLogMetadata committed = storage.commit(tp, current, next);
            if (committed == null) {
                storage.delete(tp, location);
                lostRace(partition);
                return null;
            }
            current = committed;
            publish(partition, log, current);
            LOG.debug("{}: copied segment {} to remote storage ({}), serving [{}, {})", tp, segment.baseOffset(), location,
                    start, segment.endOffset());
        }
        return current;
    }

    /** The producer snapshot at the segment's end, in Kafka's format (ours locally), if the log still has it. */
    private Optional<byte[]> kafkaProducerSnapshot(ClosedSegmentFiles segment) throws IOException {
        if (segment.producerSnapshot().isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(ProducerStateManager.kafkaFormatOf(segment.producerSnapshot().get(), time.milliseconds()));
        } catch (NoSuchFileException deletedMeanwhile) {
            return Optional.empty();
        }
    }

    /**
     * Unlists and deletes the oldest copies past the whole log's retention or below its start.
     *
     * @return the metadata after the commit; null if another writer came first
     */
    RemoteLogMetadata expire(TieredPartition partition, PartitionLog log, RemoteLogMetadata metadata, int epoch)
            throws IOException {
        LogConfig config = log.config();
        long now = time.milliseconds();
        long logStart = log.logStartOffset();
        long bytes = metadata.sizeInBytes() + log.sizeFrom(Math.max(0, metadata.endOffset()));
        int expired = 0;
        for (RemoteSegment segment : metadata.segments()) {
            boolean belowStart = segment.endOffset() <= logStart;
            boolean tooOld = config.retentionMs() >= 0 && now - segment.maxTimestamp() > config.retentionMs();
            boolean tooBig = config.retentionBytes() >= 0 && bytes - segment.sizeInBytes() >= config.retentionBytes();
            if (!belowStart && !(config.deleteRetentionEnabled() && (tooOld || tooBig))) {
                break;
            }
            bytes -= segment.sizeInBytes();
            expired++;
        }
        if (expired == 0 && logStart <= metadata.logStartOffset()) {
            return metadata;
        }
        // Also with nothing expired: a DeleteRecords start inside the first copy is recorded, for the tiered readers.
        List<RemoteSegment> gone = metadata.segments().subList(0, expired);
        long newStart = expired < metadata.segments().size()
                ? metadata.segments().get(expired).startOffset() : metadata.endOffset();
        TopicPartition tp = partition.topicPartition;
        RemoteLogMetadata committed = storage.commit(tp, metadata,
                metadata.withoutFirst(expired, epoch, Math.max(logStart, newStart)));
        if (committed == null) {
            lostRace(partition);
            return null;
        }
        publish(partition, log, committed);
        for (RemoteSegment segment : gone) {
            storage.delete(tp, segment.location());
        }
        if (expired > 0) {
            LOG.info("{}: remote retention deleted {} segments; the log now starts at offset {}", tp, expired,
                    log.logStartOffset());
        }
        return committed;
    }

    /** Another writer committed first: read the metadata again (and claim it again) next time. */
    private static void lostRace(TieredPartition partition) {
        partition.metadata = null;
        partition.claimedEpoch = -1;
    }

    /** Remembers {@code metadata} and tells the log what its remote part holds now. */
    static void publish(TieredPartition partition, PartitionLog log, RemoteLogMetadata metadata) {
        partition.metadata = metadata;
        if (metadata.endOffset() < 0) {
            log.updateRemoteTier(PartitionLog.NOTHING_REMOTE, PartitionLog.NOTHING_REMOTE);
        } else {
            log.updateRemoteTier(metadata.startOffset(), metadata.endOffset());
        }
    }
}
