package io.tributary.broker.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionFolderNames;
import io.tributary.broker.log.PartitionLog;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.internals.Topic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topics this broker knows: an in-memory copy of ZooKeeper's topic metadata (so reads never
 * wait for ZooKeeper) kept in step with the partition logs. Changes go to ZooKeeper first, then to
 * the copy and the logs. Reads are lock-free; changes are serialised. Errors are kafka-clients
 * exceptions the protocol layer maps to error codes.
 */
public final class TopicManager {
    private static final Logger log = LoggerFactory.getLogger(TopicManager.class);

    private final TopicStore store;
    private final LogManager logs;
    private volatile LogConfig brokerDefaults;
    private final int brokerId;
    private final Supplier<Set<Integer>> liveBrokers;
    private final List<TopicListener> listeners = new CopyOnWriteArrayList<>();
    private final Map<String, TopicState> topics = new ConcurrentHashMap<>();
    private final Map<Uuid, String> namesById = new ConcurrentHashMap<>();

    /** A topic's assignment, its overrides and the config they give its logs. */
    public record TopicState(TopicAssignment assignment, Map<String, String> overrides, LogConfig config) {
        public String name() {
            return assignment.name();
        }

        public Uuid id() {
            return assignment.id();
        }

        public int partitionCount() {
            return assignment.partitionCount();
        }
    }

    /** @param liveBrokers the brokers new replicas may be placed on (this one included) */
    public TopicManager(TopicStore store, LogManager logs, LogConfig brokerDefaults, int brokerId, Supplier<Set<Integer>> liveBrokers) {
        this.store = store;
        this.logs = logs;
        this.brokerDefaults = brokerDefaults;
        this.brokerId = brokerId;
        this.liveBrokers = liveBrokers;
    }

    /** {@code listener} hears of every topic installed or deleted from now on. */
    public void addListener(TopicListener listener) {
        listeners.add(listener);
    }

    /**
     * Brings one topic in line with ZooKeeper after another broker changed it: installs it (its
     * logs on this broker), applies changed config overrides or, if it was deleted, deletes it here
     * too. A topic that vanished without a deletion marker (ZooKeeper lost its data) is kept.
     */
    public synchronized void refresh(String name) {
        Optional<TopicAssignment> stored = store.assignment(name);
        TopicState known = topics.get(name);
        if (stored.isEmpty()) {
            if (known != null && store.wasDeleted(name)) {
                remove(known);
            } else if (known != null) {
                log.warn("topic {} is missing from ZooKeeper but was not deleted; keeping it", name);
            }
            return;
        }
        Map<String, String> overrides = store.overrides(name);
        if (known != null && known.assignment().equals(stored.get())) {
            if (!known.overrides().equals(overrides)) {
                topics.put(name, new TopicState(known.assignment(), Map.copyOf(overrides), configOf(name, overrides)));
                logs.updateConfig(name, topics.get(name).config());
                log.info("topic {} now has overrides {}", name, overrides);
            }
            return;
        }
        if (known != null && !known.id().equals(stored.get().id())) {
            remove(known); // deleted and created again elsewhere
        }
        install(new TopicState(stored.get(), Map.copyOf(overrides), configOf(name, overrides)));
    }

    /** The log config {@code overrides} give a topic stored in ZooKeeper; invalid ones fall back to the broker defaults. */
    private LogConfig configOf(String name, Map<String, String> overrides) {
        try {
            return brokerDefaults.withTopicOverrides(overrides);
        } catch (ConfigException e) {
            log.warn("topic {} has invalid overrides {} ({}); using broker defaults", name, overrides, e.getMessage());
            return brokerDefaults;
        }
    }

    /** Loads every topic from ZooKeeper and opens the logs of the partitions this broker holds. */
    public synchronized void load() {
        for (String name : store.topicNames()) {
            Optional<TopicAssignment> stored = store.assignment(name);
            if (stored.isEmpty()) {
                continue; // deleted in between
            }
            TopicAssignment assignment = stored.get();
            if (assignment.id().equals(Uuid.ZERO_UUID)) {
                assignment = new TopicAssignment(name, Uuid.randomUuid(), assignment.replicas());
                store.updateAssignment(assignment);
            }
            Map<String, String> overrides = store.overrides(name);
            install(new TopicState(assignment, Map.copyOf(overrides), configOf(name, overrides)));
            deleteLogsNoLongerAssigned(topics.get(name)); // moved away while this broker was down
        }
    }

    public Optional<TopicState> topic(String name) {
        return Optional.ofNullable(topics.get(name));
    }

    public Optional<TopicState> topic(Uuid id) {
        return Optional.ofNullable(namesById.get(id)).map(topics::get);
    }

    public Collection<TopicState> topics() {
        return List.copyOf(topics.values());
    }

    /** The log of a partition this broker holds, if the topic and partition exist. */
    public Optional<PartitionLog> log(TopicPartition partition) {
        TopicState topic = topics.get(partition.topic());
        if (topic == null || !topic.assignment().replicas().containsKey(partition.partition())) {
            return Optional.empty();
        }
        return logs.log(partition);
    }

    /** Makes the log start offsets moved by DeleteRecords durable; see {@link LogManager#checkpointLogStartOffsets}. */
    public void checkpointLogStartOffsets() {
        logs.checkpointLogStartOffsets();
    }

    /**
     * New broker defaults (dynamic broker configs): every topic's config is built again over them, and its logs take
     * it at once; the topics' own overrides still win.
     */
    public synchronized void updateBrokerDefaults(LogConfig defaults) {
        brokerDefaults = defaults;
        for (TopicState topic : List.copyOf(topics.values())) {
            TopicState updated = new TopicState(topic.assignment(), topic.overrides(), configOf(topic.name(), topic.overrides()));
            topics.put(topic.name(), updated);
            logs.updateConfig(topic.name(), updated.config());
        }
        log.info("broker defaults of topic configs changed: every topic's logs updated");
    }

    public LogConfig brokerDefaults() {
        return brokerDefaults;
    }

    /**
     * Creates a topic with its replicas spread over the live brokers ({@link ReplicaPlacement}).
     *
     * @throws InvalidTopicException, InvalidPartitionsException, InvalidReplicationFactorException,
     *         InvalidConfigurationException, TopicExistsException
     */
    public synchronized TopicState create(String name, int partitions, short replicationFactor,
                                          Map<String, String> overrides, boolean validateOnly) {
        Topic.validate(name);
        if (partitions < 1) {
            throw new InvalidPartitionsException("Number of partitions must be at least 1, got " + partitions);
        }
        PartitionFolderNames.checkFit(name, partitions);
        return create(name, ReplicaPlacement.place(name, 0, partitions, replicationFactor, liveBrokers.get()), overrides, validateOnly);
    }

    /**
     * Creates a topic with the replicas given for each partition (CreateTopics with a replica assignment).
     *
     * @throws InvalidReplicaAssignmentException if the partitions are not 0..n-1, a list is empty, has a broker twice
     *         or a broker that is not alive, or the lists differ in length
     */
    public synchronized TopicState create(String name, SortedMap<Integer, List<Integer>> replicas, Map<String, String> overrides,
                                          boolean validateOnly) {
        Topic.validate(name);
        PartitionFolderNames.checkFit(name, replicas.size());
        checkAssignment(replicas, 0, replicas.isEmpty() ? 0 : replicas.get(replicas.firstKey()).size());
        LogConfig config = validated(overrides);
        if (topics.containsKey(name)) {
            throw new TopicExistsException("Topic '" + name + "' already exists.");
        }
        for (String existing : topics.keySet()) {
            if (Topic.hasCollision(name, existing)) {
                throw new InvalidTopicException("Topic '" + name + "' collides with existing topic '" + existing
                        + "': '.' and '_' are interchangeable in metric names");
            }
        }
        TopicState topic = new TopicState(new TopicAssignment(name, Uuid.randomUuid(), replicas), Map.copyOf(overrides), config);
        if (validateOnly) {
            return topic;
        }
        if (!store.create(topic.assignment(), overrides)) {
            throw new TopicExistsException("Topic '" + name + "' already exists.");
        }
        install(topic);
        log.info("created topic {} with {} partition(s) and overrides {}", name, replicas.size(), overrides);
        return topic;
    }

    /** @throws UnknownTopicOrPartitionException if there is no such topic */
    public synchronized void delete(String name) {
        TopicState topic = existing(name);
        store.delete(name);
        remove(topic);
    }

    private void remove(TopicState topic) {
        listeners.forEach(listener -> listener.topicDeleted(topic));
        topics.remove(topic.name());
        namesById.remove(topic.id());
        List<TopicPartition> local = new ArrayList<>();
        topic.assignment().replicas().forEach((partition, replicas) -> {
            if (replicas.contains(brokerId)) {
                local.add(new TopicPartition(topic.name(), partition));
            }
        });
        logs.delete(local);
        log.info("deleted topic {}", topic.name());
    }

    /**
     * Grows the topic to {@code totalCount} partitions, placed on the live brokers or, when {@code assignments} is
     * given, on the brokers it lists for each new partition in order.
     */
    public synchronized void createPartitions(String name, int totalCount, List<List<Integer>> assignments, boolean validateOnly) {
        TopicState topic = existing(name);
        if (totalCount == topic.partitionCount()) {
            throw new InvalidPartitionsException("Topic already has " + totalCount + " partition(s).");
        }
        if (totalCount < topic.partitionCount()) {
            throw new InvalidPartitionsException("The topic " + name + " currently has " + topic.partitionCount() + " partition(s); "
                    + totalCount + " would not be an increase.");
        }
        PartitionFolderNames.checkFit(name, totalCount);
        int replicationFactor = topic.assignment().replicas().get(0).size();
        SortedMap<Integer, List<Integer>> added;
        if (assignments == null) {
            added = ReplicaPlacement.place(name, topic.partitionCount(), totalCount - topic.partitionCount(), replicationFactor,
                    liveBrokers.get());
        } else {
            if (assignments.size() != totalCount - topic.partitionCount()) {
                throw new InvalidReplicaAssignmentException("Increasing the number of partitions by "
                        + (totalCount - topic.partitionCount()) + " but " + assignments.size() + " assignments provided.");
            }
            added = new TreeMap<>();
            for (int i = 0; i < assignments.size(); i++) {
                added.put(topic.partitionCount() + i, List.copyOf(assignments.get(i)));
            }
            checkAssignment(added, topic.partitionCount(), replicationFactor);
        }
        if (validateOnly) {
            return;
        }
        SortedMap<Integer, List<Integer>> replicas = new TreeMap<>(topic.assignment().replicas());
        replicas.putAll(added);
        TopicAssignment grown = new TopicAssignment(name, topic.id(), replicas);
        store.updateAssignment(grown);
        install(new TopicState(grown, topic.overrides(), topic.config()));
    }

    /**
     * Replaces the topic's overrides; the logs pick the new settings up at once.
     *
     * @throws InvalidConfigurationException if a key is unknown or a value invalid
     */
    public synchronized void replaceOverrides(String name, Map<String, String> overrides, boolean validateOnly) {
        TopicState topic = existing(name);
        LogConfig config = validated(overrides);
        if (topic.config().remoteStorageEnable() && !config.remoteStorageEnable()) {
            throw new InvalidConfigurationException("Disabling remote storage on topic " + name + " is not supported: "
                    + LogConfig.REMOTE_STORAGE_ENABLE + " stays true once set");
        }
        if (validateOnly) {
            return;
        }
        store.writeOverrides(name, overrides);
        topics.put(name, new TopicState(topic.assignment(), Map.copyOf(overrides), config));
        logs.updateConfig(name, config);
    }

    /** Partitions {@code first}.., each on {@code replicationFactor} distinct live brokers. */
    private void checkAssignment(SortedMap<Integer, List<Integer>> replicas, int first, int replicationFactor) {
        if (replicas.isEmpty()) {
            throw new InvalidReplicaAssignmentException("The replica assignment names no partition");
        }
        Set<Integer> live = liveBrokers.get();
        int expected = first;
        for (Map.Entry<Integer, List<Integer>> partition : replicas.entrySet()) {
            List<Integer> brokers = partition.getValue();
            if (partition.getKey() != expected++) {
                throw new InvalidReplicaAssignmentException("Partitions must be numbered from " + first
                        + " without gaps; found " + partition.getKey());
            }
            if (brokers.isEmpty() || Set.copyOf(brokers).size() != brokers.size()) {
                throw new InvalidReplicaAssignmentException("Partition " + partition.getKey() + " has the replica list " + brokers
                        + ": it must be distinct brokers, not empty");
            }
            if (brokers.size() != replicationFactor) {
                throw new InvalidReplicaAssignmentException("Partition " + partition.getKey() + " has " + brokers.size()
                        + " replicas; the others have " + replicationFactor);
            }
            List<Integer> unknown = brokers.stream().filter(id -> !live.contains(id)).toList();
            if (!unknown.isEmpty()) {
                throw new InvalidReplicaAssignmentException("Unknown broker(s) in replica assignment: " + unknown);
            }
        }
    }

    private TopicState existing(String name) {
        TopicState topic = topics.get(name);
        if (topic == null) {
            throw new UnknownTopicOrPartitionException("Topic '" + name + "' does not exist.");
        }
        return topic;
    }

    private LogConfig validated(Map<String, String> overrides) {
        try {
            return brokerDefaults.withTopicOverrides(new HashMap<>(overrides));
        } catch (ConfigException e) {
            throw new InvalidConfigurationException(e.getMessage());
        }
    }

    private void install(TopicState topic) {
        topic.assignment().replicas().forEach((partition, replicas) -> {
            if (replicas.contains(brokerId)) {
                logs.getOrCreate(new TopicPartition(topic.name(), partition), topic.config());
            }
        });
        TopicState before = topics.put(topic.name(), topic);
        namesById.put(topic.id(), topic.name());
        listeners.forEach(listener -> listener.topicChanged(topic));
        if (before != null) {
            deleteLogsNoLongerAssigned(topic);
        }
    }

    /**
     * A reassignment moved replicas off this broker (or was cancelled before they got here): once the listeners have
     * dropped them, their logs go. The controller removes a replica from the assignment only after the remaining ones
     * are all in sync, so nothing acknowledged lives only here.
     */
    private void deleteLogsNoLongerAssigned(TopicState topic) {
        List<TopicPartition> gone = new ArrayList<>();
        for (PartitionLog partitionLog : logs.logs()) {
            TopicPartition tp = partitionLog.topicPartition();
            if (tp.topic().equals(topic.name())) {
                List<Integer> replicas = topic.assignment().replicas().get(tp.partition());
                if (replicas != null && !replicas.contains(brokerId)) {
                    gone.add(tp);
                }
            }
        }
        if (!gone.isEmpty()) {
            logs.delete(gone);
            log.info("deleted the logs of {}: this broker is no longer a replica", gone);
        }
    }
}
