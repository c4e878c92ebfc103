package io.tributary.broker.group;

import io.tributary.broker.coordinator.CoordinatedPartitions;
import io.tributary.broker.group.consumer.ConsumerGroupRecords;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Committed offsets: commit (with generation fencing), fetch, delete per partition or per
 * group, and expiry of empty groups' offsets after {@code offsets.retention.minutes}. A commit is
 * appended to the {@link OffsetStore} and answered (and applied to the in-memory copy) only once
 * the offsets partition's ISR has it, so what a client was told is committed survives a crash and
 * a failover. Deletions (DeleteGroups, OffsetDelete, expiry) are appended before the in-memory copy changes, take effect
 * here once appended and are answered once replicated ({@link #appendDeletion}). Only groups of the offsets
 * partitions this broker coordinates are served (see {@link CoordinatedPartitions}). Thread-safe:
 * each operation holds its group's monitor.
 */
public final class OffsetManager {
    private static final Logger log = LoggerFactory.getLogger(OffsetManager.class);

    private final GroupConfig config;
    private final GroupRegistry groups;
    private final GroupCoordinator coordinator;
    private final OffsetStore store;
    private final CoordinatedPartitions partitions;
    private final Time time;
    /** Transactions' offset commits that wait for their markers: offsets partition → producer id → group → offsets. */
    private final Map<Integer, Map<Long, Map<String, Map<TopicPartition, CommittedOffset>>>> pendingTransactional =
            new ConcurrentHashMap<>();
    /** Each group's latest deletion (of the group or of offsets) whose tombstones are appended but not replicated yet. */
    private final Map<String, CompletableFuture<Errors>> deletionsInFlight = new ConcurrentHashMap<>();

    OffsetManager(GroupConfig config, GroupRegistry groups, GroupCoordinator coordinator, OffsetStore store,
                  CoordinatedPartitions partitions, Time time) {
        this.config = config;
        this.groups = groups;
        this.coordinator = coordinator;
        this.store = store;
        this.partitions = partitions;
        this.time = time;
    }

    /** Loads the offsets stored in one partition of the offsets topic: each group with offsets starts out Empty. */
    void load(int offsetsPartition) {
        long now = time.milliseconds();
        int count = 0;
        OffsetStore.Loaded loaded = store.load(offsetsPartition);
        pendingTransactional.put(offsetsPartition, new HashMap<>(loaded.pending()));
        Map<String, Map<TopicPartition, CommittedOffset>> stored = loaded.committed();
        for (Map.Entry<String, Map<TopicPartition, CommittedOffset>> entry : stored.entrySet()) {
            Group group = groups.getOrCreate(entry.getKey(), now);
            synchronized (group) {
                entry.getValue().forEach(group::putOffset);
            }
            count += entry.getValue().size();
        }
        loaded.classicGroups().forEach((groupId, classic) -> {
            // Defensive: each conversion tombstones the other kind's records in the same batch, so both never load.
            if (!loaded.consumerGroups().containsKey(groupId)) {
                coordinator.load(groupId, classic);
            }
        });
        loaded.consumerGroups().forEach((groupId, membership) -> {
            Group group = groups.getOrCreate(groupId, now);
            synchronized (group) {
                group.consumer(membership);
            }
        });
        if (!loaded.classicGroups().isEmpty()) {
            log.info("loaded {} classic group(s) from {}-{}", loaded.classicGroups().size(), OffsetStore.TOPIC, offsetsPartition);
        }
        if (!loaded.consumerGroups().isEmpty()) {
            log.info("loaded {} consumer group(s) from {}-{}", loaded.consumerGroups().size(), OffsetStore.TOPIC, offsetsPartition);
        }
        log.info("loaded {} committed offsets of {} groups from {}-{}", count, stored.size(), OffsetStore.TOPIC, offsetsPartition);
    }

    /**
     * Completes, once the commit is replicated (or failed), with the error of each partition of the commit.
     *
     * @throws org.apache.kafka.common.errors.NotCoordinatorException and
     *         {@link org.apache.kafka.common.errors.CoordinatorLoadInProgressException} (see {@link CoordinatedPartitions})
     */
    public CompletableFuture<Map<TopicPartition, Errors>> commit(OffsetCommit commit) {
        if (commit.groupId() == null || commit.groupId().isEmpty()) {
            return allFailed(commit.offsets().keySet(), Errors.INVALID_GROUP_ID);
        }
        partitions.require(commit.groupId());
        Optional<Group> found = commit.generationId() < 0
                ? Optional.of(groups.getOrCreate(commit.groupId(), time.milliseconds()))
                : groups.get(commit.groupId());
        if (found.isEmpty()) {
            return allFailed(commit.offsets().keySet(), Errors.UNKNOWN_MEMBER_ID);
        }
        Group group = found.get();
        synchronized (group) {
            Errors error = group.is(GroupState.DEAD) ? Errors.COORDINATOR_NOT_AVAILABLE
                    : coordinator.checkCommitter(group, commit.memberId(), commit.groupInstanceId(), commit.generationId());
            if (error != Errors.NONE) {
                return allFailed(commit.offsets().keySet(), error);
            }
            Map<TopicPartition, Errors> results = new LinkedHashMap<>();
            Map<TopicPartition, CommittedOffset> accepted = new LinkedHashMap<>();
            long now = time.milliseconds();
            commit.offsets().forEach((partition, position) -> {
                String metadata = position.metadata();
                Errors notOwned = group.consumer() == null ? Errors.NONE
                        : ConsumerGroupCoordinator.partitionCommitError(group.consumer(), commit.memberId(), commit.generationId(), partition);
                if (notOwned != Errors.NONE) {
                    results.put(partition, notOwned);
                } else if (metadata != null && metadata.length() > config.offsetMetadataMaxBytes()) {
                    results.put(partition, Errors.OFFSET_METADATA_TOO_LARGE);
                } else {
                    accepted.put(partition, new CommittedOffset(position.offset(), position.leaderEpoch(), metadata, now));
                }
            });
            long sequence = group.nextCommitSequence();
            return write(group, accepted, sequence).thenApply(written -> {
                synchronized (group) {
                    accepted.forEach((partition, offset) -> {
                        if (written == Errors.NONE) {
                            group.applyCommit(partition, offset, sequence);
                        }
                        results.put(partition, written);
                    });
                    return results;
                }
            });
        }
    }

    /**
     * TxnOffsetCommit: appends a transaction's offset commits, which count once its COMMIT marker is written
     * ({@link #transactionCompleted}). Completes, once appended and replicated, with each partition's error.
     *
     * @throws org.apache.kafka.common.errors.NotCoordinatorException and
     *         {@link org.apache.kafka.common.errors.CoordinatorLoadInProgressException}
     */
    public CompletableFuture<Map<TopicPartition, Errors>> commitTransactional(OffsetCommit commit, long producerId,
                                                                              short producerEpoch) {
        if (commit.groupId() == null || commit.groupId().isEmpty()) {
            return allFailed(commit.offsets().keySet(), Errors.INVALID_GROUP_ID);
        }
        partitions.require(commit.groupId());
        Group group = groups.getOrCreate(commit.groupId(), time.milliseconds());
        synchronized (group) {
            Errors error = group.is(GroupState.DEAD) ? Errors.COORDINATOR_NOT_AVAILABLE
                    : commit.generationId() < 0 ? Errors.NONE
                    : coordinator.checkCommitter(group, commit.memberId(), commit.groupInstanceId(), commit.generationId());
            if (error != Errors.NONE) {
                return allFailed(commit.offsets().keySet(), error);
            }
        }
        long now = time.milliseconds();
        Map<TopicPartition, CommittedOffset> accepted = new LinkedHashMap<>();
        Map<TopicPartition, Errors> results = new LinkedHashMap<>();
        commit.offsets().forEach((partition, position) -> {
            if (position.metadata() != null && position.metadata().length() > config.offsetMetadataMaxBytes()) {
                results.put(partition, Errors.OFFSET_METADATA_TOO_LARGE);
            } else {
                accepted.put(partition, new CommittedOffset(position.offset(), position.leaderEpoch(), position.metadata(), now));
            }
        });
        if (accepted.isEmpty()) {
            return CompletableFuture.completedFuture(results);
        }
        CompletableFuture<Errors> written;
        try {
            written = store.writeTransactional(commit.groupId(), producerId, producerEpoch, accepted)
                    .thenApply(OffsetStore::clientError);
        } catch (RuntimeException e) {
            written = CompletableFuture.completedFuture(OffsetStore.clientError(Errors.forException(e)));
        }
        int offsetsPartition = partitions.partitionOf(commit.groupId());
        return written.thenApply(error -> {
            if (error == Errors.NONE) {
                Map<Long, Map<String, Map<TopicPartition, CommittedOffset>>> pending =
                        pendingTransactional.computeIfAbsent(offsetsPartition, p -> new HashMap<>());
                synchronized (pending) {
                    pending.computeIfAbsent(producerId, id -> new HashMap<>())
                            .computeIfAbsent(commit.groupId(), g -> new HashMap<>()).putAll(accepted);
                }
            }
            accepted.keySet().forEach(partition -> results.put(partition, error));
            return results;
        });
    }

    /**
     * A marker of {@code producerId}'s transaction is in {@code offsetsPartition}: its offset commits there now
     * count (COMMIT) or are dropped (ABORT).
     */
    public void transactionCompleted(int offsetsPartition, long producerId, boolean committed) {
        Map<Long, Map<String, Map<TopicPartition, CommittedOffset>>> pending = pendingTransactional.get(offsetsPartition);
        if (pending == null) {
            return;
        }
        Map<String, Map<TopicPartition, CommittedOffset>> completed;
        synchronized (pending) {
            completed = pending.remove(producerId);
        }
        if (completed == null || !committed) {
            return;
        }
        long now = time.milliseconds();
        completed.forEach((groupId, offsets) -> {
            Group group = groups.getOrCreate(groupId, now);
            synchronized (group) {
                offsets.forEach(group::putOffset);
            }
        });
    }

    /**
     * Whether an open transaction has committed an offset of {@code partition} for the group: OffsetFetch with
     * require_stable answers UNSTABLE_OFFSET_COMMIT for it until the transaction completes (KIP-447).
     */
    public boolean hasPendingTransactionalOffset(String groupId, TopicPartition partition) {
        Map<Long, Map<String, Map<TopicPartition, CommittedOffset>>> pending =
                pendingTransactional.get(partitions.partitionOf(groupId));
        if (pending == null) {
            return false;
        }
        synchronized (pending) {
            return pending.values().stream().anyMatch(byGroup -> byGroup.getOrDefault(groupId, Map.of()).containsKey(partition));
        }
    }

    /** Forgets the pending transactional commits of an offsets partition this broker no longer leads. */
    void unloadPending(int offsetsPartition) {
        pendingTransactional.remove(offsetsPartition);
    }

    /**
     * Appends the commits (in flight in the group from then on, see {@link Group#storedPartitions()}); completes once they
     * are replicated, with the error to report for them.
     */
    private CompletableFuture<Errors> write(Group group, Map<TopicPartition, CommittedOffset> offsets, long sequence) {
        if (offsets.isEmpty()) {
            return CompletableFuture.completedFuture(Errors.NONE);
        }
        String groupId = group.groupId();
        try {
            CompletableFuture<Errors> written = store.write(groupId, offsets).thenApply(OffsetStore::clientError);
            group.commitAppended(offsets.keySet(), sequence);
            return written.whenComplete((error, failure) -> {
                synchronized (group) {
                    group.commitEnded();
                }
            });
        } catch (RecordTooLargeException | CorruptRecordException e) {
            return CompletableFuture.completedFuture(Errors.INVALID_COMMIT_OFFSET_SIZE);
        } catch (RuntimeException e) {
            Errors error = OffsetStore.clientError(Errors.forException(e));
            if (error == Errors.COORDINATOR_NOT_AVAILABLE) {
                log.warn("could not store offsets of group {}: {}", groupId, e.toString());
            }
            return CompletableFuture.completedFuture(error);
        }
    }

    private static CompletableFuture<Map<TopicPartition, Errors>> allFailed(Collection<TopicPartition> partitions, Errors error) {
        Map<TopicPartition, Errors> results = new LinkedHashMap<>();
        partitions.forEach(partition -> results.put(partition, error));
        return CompletableFuture.completedFuture(results);
    }

    /**
     * The group's committed offsets of {@code partitions}, or of every partition it has committed
     * when empty is passed. Partitions without a commit are absent from the result.
     */
    public Map<TopicPartition, CommittedOffset> fetch(String groupId, Optional<Collection<TopicPartition>> partitions) {
        this.partitions.require(groupId);
        Optional<Group> found = groups.get(groupId);
        if (found.isEmpty()) {
            return Map.of();
        }
        Group group = found.get();
        synchronized (group) {
            if (partitions.isEmpty()) {
                return group.offsets();
            }
            Map<TopicPartition, CommittedOffset> result = new HashMap<>();
            for (TopicPartition partition : partitions.get()) {
                group.offset(partition).ifPresent(offset -> result.put(partition, offset));
            }
            return result;
        }
    }

    /**
     * OffsetFetch v9+ from a member of a consumer group (an epoch given): UNKNOWN_MEMBER_ID or STALE_MEMBER_EPOCH
     * unless it is a member at that epoch, as in Kafka; with epoch -1 (admin clients, members not joined yet)
     * anyone may fetch.
     */
    public Errors checkFetcher(String groupId, String memberId, int memberEpoch) {
        partitions.require(groupId);
        if (memberEpoch < 0) {
            return Errors.NONE;
        }
        Optional<Group> found = groups.get(groupId);
        if (found.isEmpty()) {
            return Errors.NONE;
        }
        Group group = found.get();
        synchronized (group) {
            if (group.consumer() == null) {
                return Errors.NONE;
            }
            return group.consumer().member(memberId == null ? "" : memberId)
                    .map(member -> member.memberEpoch() == memberEpoch ? Errors.NONE
                            : member.usesClassicProtocol() ? Errors.ILLEGAL_GENERATION : Errors.STALE_MEMBER_EPOCH)
                    .orElse(Errors.UNKNOWN_MEMBER_ID);
        }
    }

    /** OffsetDelete: the group-level error and, if NONE, each partition's. */
    public record DeleteResult(Errors error, Map<TopicPartition, Errors> partitions) {
    }

    /**
     * Deletes the group's offsets of {@code partitions}; completes once their tombstones are replicated (see
     * {@link #appendDeletion}). Refused for partitions of topics that a member of the (non-empty) group subscribes to.
     *
     * @throws org.apache.kafka.common.errors.NotCoordinatorException and
     *         {@link org.apache.kafka.common.errors.CoordinatorLoadInProgressException}
     */
    public CompletableFuture<DeleteResult> deleteOffsets(String groupId, Collection<TopicPartition> partitions) {
        this.partitions.require(groupId);
        Optional<Group> found = groups.get(groupId);
        if (found.isEmpty()) {
            return groupNotFound(groupId).thenApply(error -> new DeleteResult(error, Map.of()));
        }
        Group group = found.get();
        synchronized (group) {
            if (group.is(GroupState.DEAD)) {
                return groupNotFound(groupId).thenApply(error -> new DeleteResult(error, Map.of()));
            }
            if (group.hasMembers() && !ConsumerProtocol.PROTOCOL_TYPE.equals(group.protocolType())) {
                return CompletableFuture.completedFuture(new DeleteResult(Errors.NON_EMPTY_GROUP, Map.of()));
            }
            Set<String> subscribed = subscribedTopics(group);
            Set<TopicPartition> stored = group.storedPartitions();
            Map<TopicPartition, Errors> results = new LinkedHashMap<>();
            List<TopicPartition> removable = new ArrayList<>();
            for (TopicPartition partition : partitions) {
                if (subscribed.contains(partition.topic())) {
                    results.put(partition, Errors.GROUP_SUBSCRIBED_TO_TOPIC);
                } else {
                    results.put(partition, Errors.NONE);
                    if (stored.contains(partition)) {
                        removable.add(partition);
                    }
                }
            }
            return appendDeletion(group, store.offsetTombstones(groupId, removable), () -> removable.forEach(group::removeOffset))
                    .thenApply(error -> error == Errors.NONE ? new DeleteResult(Errors.NONE, results) : new DeleteResult(error, Map.of()));
        }
    }

    /** Topics any member subscribes to, from the consumer-protocol metadata of every protocol it offers. */
    private static Set<String> subscribedTopics(Group group) {
        Set<String> topics = new HashSet<>();
        if (group.consumer() != null) {
            group.consumer().members().forEach(member -> topics.addAll(member.subscribedTopicNames()));
        }
        for (Member member : group.members()) {
            for (Protocol protocol : member.protocols()) {
                try {
                    topics.addAll(ConsumerProtocol.deserializeSubscription(ByteBuffer.wrap(protocol.metadata())).topics());
                } catch (RuntimeException e) {
                    log.debug("group {}: unreadable subscription of member {}", group.groupId(), member.memberId());
                }
            }
        }
        return topics;
    }

    /**
     * DeleteGroups: each group must be empty; its offsets and records are tombstoned in one batch and the group is gone.
     * Completes, once every deletion's tombstones are replicated, with each group's error (see {@link #appendDeletion}).
     */
    public CompletableFuture<Map<String, Errors>> deleteGroups(List<String> groupIds) {
        Map<String, CompletableFuture<Errors>> deletions = new LinkedHashMap<>();
        for (String groupId : groupIds) {
            deletions.put(groupId, deleteGroup(groupId));
        }
        return CompletableFuture.allOf(deletions.values().toArray(CompletableFuture[]::new)).thenApply(all -> {
            Map<String, Errors> results = new LinkedHashMap<>();
            deletions.forEach((groupId, deletion) -> results.put(groupId, deletion.join()));
            return results;
        });
    }

    private CompletableFuture<Errors> deleteGroup(String groupId) {
        Errors notHere = partitions.errorFor(groupId);
        if (notHere != Errors.NONE) {
            return CompletableFuture.completedFuture(notHere);
        }
        Optional<Group> found = groups.get(groupId);
        if (found.isEmpty()) {
            return groupNotFound(groupId);
        }
        Group group = found.get();
        synchronized (group) {
            if (group.is(GroupState.DEAD)) {
                return groupNotFound(groupId);
            }
            if (!group.is(GroupState.EMPTY) || group.hasMembers() || group.hasConsumerMembers()) {
                return CompletableFuture.completedFuture(Errors.NON_EMPTY_GROUP);
            }
            return appendDeletion(group, tombstones(group), () -> markDead(group)).thenApply(error -> {
                if (error == Errors.NONE) {
                    log.info("deleted group {}", groupId);
                }
                return error;
            });
        }
    }

    /**
     * GROUP_ID_NOT_FOUND, once a deletion of the group still in flight is replicated; if that one fails, its error (the
     * group may be back), as Kafka answers a write that changed nothing only once the writes before it are committed.
     */
    private CompletableFuture<Errors> groupNotFound(String groupId) {
        return deletionsInFlight.getOrDefault(groupId, CompletableFuture.completedFuture(Errors.NONE))
                .thenApply(error -> error == Errors.NONE ? Errors.GROUP_ID_NOT_FOUND : error);
    }

    /**
     * What deleting the whole group writes, as Kafka deletes a group: the tombstones of every offset its log may hold
     * ({@link Group#storedPartitions()}: commits still in flight too, so that none brings the group back), and of its
     * records — a consumer group's (group epoch, target assignment), or a classic group's record if it may have one (it
     * had a generation).
     */
    private List<SimpleRecord> tombstones(Group group) {
        List<SimpleRecord> tombstones = new ArrayList<>(store.offsetTombstones(group.groupId(), group.storedPartitions()));
        long now = time.milliseconds();
        if (group.consumer() != null) {
            tombstones.addAll(new ConsumerGroupRecords(group.groupId(), now).groupRemoved(group.consumer()).records());
        } else if (group.generationId() > 0) {
            tombstones.add(ClassicGroupRecords.tombstone(group.groupId(), now));
        }
        return tombstones;
    }

    /**
     * Appends a deletion's {@code tombstones} as one batch and, once they are appended, applies it here ({@code applied},
     * called under the group's monitor, which the caller holds). Like Kafka, which applies a write to its uncommitted
     * state when it appends it, the deletion is seen at once by every later request: the group (or offset) is gone, so a
     * member's request finds no group, and a JoinGroup, a consumer's first heartbeat or an admin commit starts a new group
     * whose records follow the tombstones in the log; a deletion of a group still in flight is answered only after it.
     * The answer waits for the replication, as Kafka answers once the write is committed.
     *
     * <p>Refused before anything was appended (too few replicas in sync, leadership lost), nothing is applied: the group
     * is as it was and the answer is the error. Failing after it was appended, the deletion is not undone here, as Kafka
     * reverts only a write it could not append: a lost leadership (NOT_COORDINATOR) drops this broker's groups and the
     * next coordinator rebuilds them from what was replicated, the group included; a timeout (COORDINATOR_NOT_AVAILABLE)
     * leaves the tombstones in this leader's log, which goes on replicating them, and the client's retry finds the group
     * gone.
     *
     * @return completes once the tombstones are replicated (at once if there are none), with the error to answer
     */
    private CompletableFuture<Errors> appendDeletion(Group group, List<SimpleRecord> tombstones, Runnable applied) {
        if (tombstones.isEmpty()) {
            applied.run();
            return CompletableFuture.completedFuture(Errors.NONE);
        }
        CompletableFuture<Errors> replicated;
        try {
            replicated = store.appendGroupRecords(group.groupId(), tombstones)
                    .handle((error, failure) -> OffsetStore.clientError(failure == null ? error : Errors.forException(failure)));
        } catch (RuntimeException e) {
            log.warn("could not delete {} record(s) of group {}: {}", tombstones.size(), group.groupId(), e.toString());
            return CompletableFuture.completedFuture(OffsetStore.clientError(Errors.forException(e)));
        }
        applied.run();
        String groupId = group.groupId();
        deletionsInFlight.put(groupId, replicated);
        replicated.whenComplete((error, failure) -> deletionsInFlight.remove(groupId, replicated));
        return replicated;
    }

    /**
     * Drops the offsets of empty groups that have been empty, and not committed to, for
     * {@code offsets.retention.minutes}; an empty group left without offsets is removed, with its records. Run every
     * {@code offsets.retention.check.interval.ms}, in the background: a deletion refused is tried again at the next run,
     * and one whose tombstones are lost in a failover is made again by the next coordinator.
     *
     * @return the number of offsets removed
     */
    public int expireOffsets() {
        long now = time.milliseconds();
        AtomicInteger removed = new AtomicInteger();
        for (Group group : groups.all()) {
            synchronized (group) {
                if (!group.is(GroupState.EMPTY) || group.hasConsumerMembers()) {
                    continue;
                }
                long emptySince = group.stateChangedMs();
                List<TopicPartition> expired = new ArrayList<>();
                group.offsets().forEach((partition, offset) -> {
                    if (now - Math.max(emptySince, offset.commitTimestampMs()) >= config.offsetsRetentionMs()) {
                        expired.add(partition);
                    }
                });
                if (!expired.isEmpty()) {
                    appendDeletion(group, store.offsetTombstones(group.groupId(), expired), () -> {
                        expired.forEach(group::removeOffset);
                        removed.addAndGet(expired.size());
                    });
                }
                if (!group.hasOffsets() && !group.hasCommitsInFlight() && !group.hasMembers() && !group.hasPendingMembers()) {
                    appendDeletion(group, tombstones(group), () -> {
                        markDead(group);
                        log.info("removed group {}: empty, its offsets expired", group.groupId());
                    });
                }
            }
        }
        return removed.get();
    }

    private void markDead(Group group) {
        group.transitionTo(GroupState.DEAD, time.milliseconds());
        groups.remove(group);
    }
}
