package io.tributary.broker.coordinator;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.ToIntFunction;
import org.apache.kafka.common.errors.CoordinatorLoadInProgressException;
import org.apache.kafka.common.errors.NotCoordinatorException;
import org.apache.kafka.common.protocol.Errors;

/**
 * The partitions of a coordinator's internal topic ({@code __consumer_offsets}, {@code __transaction_state}) this
 * broker coordinates: those it leads, each at the leader epoch it was given. A partition is loading until its
 * state has been read from its log; then it is coordinated. A key (group, transactional id) whose partition is
 * neither gets NOT_COORDINATOR (its clients look the coordinator up again), one whose partition is loading gets
 * COORDINATOR_LOAD_IN_PROGRESS (they retry). Thread-safe.
 */
public final class CoordinatedPartitions {
    private final ToIntFunction<String> partitionOfGroup;
    private final String keyName;
    private final ConcurrentMap<Integer, Tenure> tenures = new ConcurrentHashMap<>();

    /** Leadership of one offsets partition: its epoch, and whether its groups are loaded. */
    private record Tenure(int leaderEpoch, boolean loaded) {
    }

    /** @param partitionOfGroup the offsets partition that holds a group */
    public CoordinatedPartitions(ToIntFunction<String> partitionOfGroup) {
        this(partitionOfGroup, "group");
    }

    /**
     * @param partitionOfKey the partition that holds a key
     * @param keyName        what a key is, for error messages ("group", "transactional id")
     */
    public CoordinatedPartitions(ToIntFunction<String> partitionOfKey, String keyName) {
        this.partitionOfGroup = partitionOfKey;
        this.keyName = keyName;
    }

    public int partitionOf(String groupId) {
        return partitionOfGroup.applyAsInt(groupId);
    }

    /** This broker leads {@code partition} at {@code leaderEpoch}; its groups are about to be loaded. */
    public void startLoading(int partition, int leaderEpoch) {
        tenures.put(partition, new Tenure(leaderEpoch, false));
    }

    /** True while {@code partition} waits to be loaded for the leadership at {@code leaderEpoch}. */
    public boolean isLoading(int partition, int leaderEpoch) {
        return new Tenure(leaderEpoch, false).equals(tenures.get(partition));
    }

    /** The groups of {@code partition} are loaded; ignored if the leadership at {@code leaderEpoch} ended meanwhile. */
    public void finishLoading(int partition, int leaderEpoch) {
        tenures.replace(partition, new Tenure(leaderEpoch, false), new Tenure(leaderEpoch, true));
    }

    /** This broker no longer leads {@code partition}. */
    public void resign(int partition) {
        tenures.remove(partition);
    }

    /** True if this broker leads {@code partition} (loaded or not). */
    public boolean leads(int partition) {
        return tenures.containsKey(partition);
    }

    /** NONE if this broker coordinates {@code groupId}, else NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS. */
    public Errors errorFor(String groupId) {
        Tenure tenure = tenures.get(partitionOf(groupId));
        if (tenure == null) {
            return Errors.NOT_COORDINATOR;
        }
        return tenure.loaded() ? Errors.NONE : Errors.COORDINATOR_LOAD_IN_PROGRESS;
    }

    /**
     * @throws NotCoordinatorException             if this broker does not lead the group's partition
     * @throws CoordinatorLoadInProgressException if it is still loading it
     */
    public void require(String groupId) {
        Errors error = errorFor(groupId);
        if (error == Errors.NOT_COORDINATOR) {
            throw new NotCoordinatorException("This broker is not the coordinator of " + keyName + " " + groupId);
        }
        if (error == Errors.COORDINATOR_LOAD_IN_PROGRESS) {
            throw new CoordinatorLoadInProgressException("The coordinator of " + keyName + " " + groupId + " is loading its state");
        }
    }
}
