package io.tributary.broker;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import io.tributary.broker.group.GroupConfig;
import io.tributary.broker.group.consumer.ConsumerGroupSettings;
import io.tributary.broker.txn.TransactionConfig;
import io.tributary.broker.log.IdempotentAppender;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.remote.RemoteLogConfig;
import io.tributary.http.HttpListeners;
import io.tributary.broker.network.ChannelSecurity;
import io.tributary.broker.network.ConnectionLimits;
import io.tributary.broker.network.SocketServerConfig;
import io.tributary.broker.quota.ConnectionRateLimits;
import io.tributary.broker.replica.BrokerConnector;
import io.tributary.broker.replica.ReplicationConfig;
import io.tributary.broker.security.AclAuthorizer;
import io.tributary.broker.security.DelegationTokenSettings;
import io.tributary.broker.security.Listener;
import io.tributary.broker.security.Listeners;
import io.tributary.broker.security.SecurityConfigs;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.coordinator.group.ConsumerGroupMigrationPolicy;

/**
 * The broker's settings ({@code server.properties}): the keys of the server itself declared here
 * once each, plus the {@code log.*} keys of {@link LogConfig#brokerConfigDef()}. Immutable.
 */
public final class BrokerConfig extends AbstractConfig {
    public static final String BROKER_ID = "broker.id";
    public static final String LISTENERS = Listeners.LISTENERS;
    public static final String ZOOKEEPER_CONNECT = "zookeeper.connect";
    public static final String HTTP_LISTENERS = HttpListeners.HTTP_LISTENERS;
    public static final String ZOOKEEPER_EMBEDDED_PORT = "zookeeper.embedded.port";
    public static final String ZOOKEEPER_SESSION_TIMEOUT_MS = "zookeeper.session.timeout.ms";
    public static final String ZOOKEEPER_CONNECTION_TIMEOUT_MS = "zookeeper.connection.timeout.ms";
    public static final String ZOOKEEPER_SET_ACL = "zookeeper.set.acl";
    public static final String NUM_NETWORK_THREADS = "num.network.threads";
    public static final String NUM_IO_THREADS = "num.io.threads";
    public static final String SOCKET_REQUEST_MAX_BYTES = "socket.request.max.bytes";
    public static final String SOCKET_SEND_BUFFER_BYTES = "socket.send.buffer.bytes";
    public static final String SOCKET_RECEIVE_BUFFER_BYTES = "socket.receive.buffer.bytes";
    public static final String CONNECTIONS_MAX_IDLE_MS = "connections.max.idle.ms";
    public static final String CONNECTIONS_MAX_PARTIAL_REQUEST_MS = "connections.max.partial.request.ms";
    public static final String MAX_CONNECTIONS = "max.connections";
    public static final String MAX_CONNECTIONS_PER_IP = "max.connections.per.ip";
    public static final String MAX_CONNECTIONS_PER_IP_OVERRIDES = "max.connections.per.ip.overrides";
    public static final String MAX_CONNECTION_CREATION_RATE = "max.connection.creation.rate";
    public static final String QUEUED_MAX_REQUESTS = "queued.max.requests";
    public static final String QUEUED_MAX_REQUEST_BYTES = "queued.max.request.bytes";
    public static final String QUOTA_WINDOW_NUM = "quota.window.num";
    public static final String LEADER_REPLICATION_THROTTLED_RATE = "leader.replication.throttled.rate";
    public static final String FOLLOWER_REPLICATION_THROTTLED_RATE = "follower.replication.throttled.rate";
    public static final String REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND = "replica.alter.log.dirs.io.max.bytes.per.second";
    public static final String QUOTA_WINDOW_SIZE_SECONDS = "quota.window.size.seconds";
    public static final String AUTO_CREATE_TOPICS_ENABLE = "auto.create.topics.enable";
    public static final String NUM_PARTITIONS = "num.partitions";
    public static final String DEFAULT_REPLICATION_FACTOR = "default.replication.factor";
    public static final String DELETE_TOPIC_ENABLE = "delete.topic.enable";
    public static final String GROUP_MIN_SESSION_TIMEOUT_MS = "group.min.session.timeout.ms";
    public static final String GROUP_MAX_SESSION_TIMEOUT_MS = "group.max.session.timeout.ms";
    public static final String GROUP_INITIAL_REBALANCE_DELAY_MS = "group.initial.rebalance.delay.ms";
    public static final String GROUP_MAX_SIZE = "group.max.size";
    public static final String GROUP_CONSUMER_MAX_SIZE = "group.consumer.max.size";
    public static final String GROUP_CONSUMER_SESSION_TIMEOUT_MS = "group.consumer.session.timeout.ms";
    public static final String GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS = "group.consumer.heartbeat.interval.ms";
    public static final String GROUP_CONSUMER_ASSIGNORS = "group.consumer.assignors";
    public static final String GROUP_CONSUMER_MIGRATION_POLICY = "group.consumer.migration.policy";
    public static final String GROUP_CONSUMER_MIN_SESSION_TIMEOUT_MS = "group.consumer.min.session.timeout.ms";
    public static final String GROUP_CONSUMER_MAX_SESSION_TIMEOUT_MS = "group.consumer.max.session.timeout.ms";
    public static final String GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS = "group.consumer.min.heartbeat.interval.ms";
    public static final String GROUP_CONSUMER_MAX_HEARTBEAT_INTERVAL_MS = "group.consumer.max.heartbeat.interval.ms";
    public static final String OFFSETS_TOPIC_NUM_PARTITIONS = "offsets.topic.num.partitions";
    public static final String OFFSETS_RETENTION_MINUTES = "offsets.retention.minutes";
    public static final String OFFSETS_RETENTION_CHECK_INTERVAL_MS = "offsets.retention.check.interval.ms";
    public static final String OFFSET_METADATA_MAX_BYTES = "offset.metadata.max.bytes";
    public static final String OFFSETS_TOPIC_REPLICATION_FACTOR = "offsets.topic.replication.factor";
    public static final String OFFSETS_COMMIT_TIMEOUT_MS = "offsets.commit.timeout.ms";
    public static final String MIN_INSYNC_REPLICAS = LogConfig.MIN_IN_SYNC_REPLICAS;
    public static final String REPLICA_LAG_TIME_MAX_MS = "replica.lag.time.max.ms";
    public static final String REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS = "replica.high.watermark.checkpoint.interval.ms";
    public static final String REPLICA_FETCH_MAX_BYTES = "replica.fetch.max.bytes";
    public static final String REPLICA_FETCH_RESPONSE_MAX_BYTES = "replica.fetch.response.max.bytes";
    public static final String REPLICA_FETCH_WAIT_MAX_MS = "replica.fetch.wait.max.ms";
    public static final String REPLICA_FETCH_BACKOFF_MS = "replica.fetch.backoff.ms";
    public static final String NUM_REPLICA_FETCHERS = "num.replica.fetchers";
    public static final String MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS = "max.incremental.fetch.session.cache.slots";
    public static final String UNCLEAN_LEADER_ELECTION_ENABLE = "unclean.leader.election.enable";
    public static final String AUTO_LEADER_REBALANCE_ENABLE = "auto.leader.rebalance.enable";
    public static final String LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS = "leader.imbalance.check.interval.seconds";
    public static final String CONTROLLED_SHUTDOWN_ENABLE = "controlled.shutdown.enable";
    public static final String CONTROLLED_SHUTDOWN_TIMEOUT_MS = "controlled.shutdown.timeout.ms";
    public static final String PRODUCER_ID_EXPIRATION_MS = "producer.id.expiration.ms";
    public static final String PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS = "producer.id.expiration.check.interval.ms";
    public static final String TRANSACTION_STATE_LOG_NUM_PARTITIONS = "transaction.state.log.num.partitions";
    public static final String TRANSACTION_STATE_LOG_REPLICATION_FACTOR = "transaction.state.log.replication.factor";
    public static final String TRANSACTION_STATE_LOG_MIN_ISR = "transaction.state.log.min.isr";
    public static final String TRANSACTION_STATE_LOG_SEGMENT_BYTES = "transaction.state.log.segment.bytes";
    public static final String TRANSACTION_MAX_TIMEOUT_MS = "transaction.max.timeout.ms";
    public static final String TRANSACTIONAL_ID_EXPIRATION_MS = "transactional.id.expiration.ms";
    public static final String TRANSACTION_REMOVE_EXPIRED_CLEANUP_INTERVAL_MS =
            "transaction.remove.expired.transaction.cleanup.interval.ms";
    public static final String TRANSACTION_PARTITION_VERIFICATION_ENABLE = "transaction.partition.verification.enable";
    public static final String TRANSACTION_ABORT_TIMED_OUT_CLEANUP_INTERVAL_MS =
            "transaction.abort.timed.out.transaction.cleanup.interval.ms";

    private static final ConfigDef DEFINITION = RemoteLogConfig.define(SecurityConfigs.define(LogConfig.brokerConfigDef()))
            .define(BROKER_ID, Type.INT, 0, Range.atLeast(0), Importance.HIGH,
                    "Id of this broker, unique in the cluster; its ZooKeeper registration is /brokers/ids/<id>.")
            .define(LISTENERS, Type.STRING, "PLAINTEXT://127.0.0.1:9092", Importance.HIGH,
                    "The listeners to bind, NAME://host:port,... (each name's security protocol from "
                            + Listeners.LISTENER_SECURITY_PROTOCOL_MAP + "); only these are opened. An empty host binds "
                            + "every interface. Port 0 binds a free port, which the start-up line reports and the "
                            + "broker registers.")
            .define(ZOOKEEPER_CONNECT, Type.STRING, "", Importance.HIGH,
                    "ZooKeeper ensemble (host:port,...[/chroot]). Empty: the broker starts an embedded ZooKeeper "
                            + "server on 127.0.0.1:" + ZOOKEEPER_EMBEDDED_PORT + " with its data under the first log dir.")
            .define(ZOOKEEPER_EMBEDDED_PORT, Type.INT, 2181, Range.between(0, 65535), Importance.MEDIUM,
                    "Port of the embedded ZooKeeper server when zookeeper.connect is empty; 0 picks a free port.")
            .define(ZOOKEEPER_SESSION_TIMEOUT_MS, Type.INT, 18_000, Range.atLeast(1000), Importance.MEDIUM,
                    "ZooKeeper session timeout: how long the broker's registration outlives a lost connection.")
            .define(ZOOKEEPER_CONNECTION_TIMEOUT_MS, Type.INT, 18_000, Range.atLeast(100), Importance.MEDIUM,
                    "How long start-up waits for the first ZooKeeper connection.")
            .define(ZOOKEEPER_SET_ACL, Type.BOOLEAN, false, Importance.HIGH,
                    "Whether the nodes the broker creates in ZooKeeper are secured, as in Kafka: only the brokers' "
                            + "ZooKeeper identity may change them and others may read them, except below /config/users "
                            + "(SCRAM credentials), /config/brokers and /delegation_token/tokens, which others may not read "
                            + "either. Needs the brokers "
                            + "to log in to ZooKeeper with SASL (a Client section in the JVM's JAAS configuration, "
                            + "-Djava.security.auth.login.config=FILE); a broker without that login does not start.")
            .define(HTTP_LISTENERS, Type.STRING, "", ConfigDef.LambdaValidator.with(BrokerConfig::validateHttpListeners,
                            () -> "http://host:port,..."), Importance.MEDIUM,
                    "Where the broker serves GET /metrics (Prometheus text format) and the status page GET /, http://host:port,...; port 0 binds a "
                            + "free port. Empty: no HTTP endpoint.")
            .define(NUM_NETWORK_THREADS, Type.INT, 3, Range.atLeast(1), Importance.HIGH,
                    "Threads that read requests from and write responses to the sockets, each with its own selector.")
            .define(NUM_IO_THREADS, Type.INT, 8, Range.atLeast(1), Importance.HIGH,
                    "Threads that handle requests (including disk I/O).")
            .define(SOCKET_REQUEST_MAX_BYTES, Type.INT, 100 * 1024 * 1024, Range.atLeast(1), Importance.HIGH,
                    "Largest request frame accepted; checked against the size prefix before any buffer is "
                            + "allocated. A larger frame closes the connection.")
            .define(SOCKET_SEND_BUFFER_BYTES, Type.INT, 100 * 1024, Importance.MEDIUM,
                    "SO_SNDBUF of client sockets; -1 keeps the OS default.")
            .define(SOCKET_RECEIVE_BUFFER_BYTES, Type.INT, 100 * 1024, Importance.MEDIUM,
                    "SO_RCVBUF of client sockets; -1 keeps the OS default.")
            .define(CONNECTIONS_MAX_IDLE_MS, Type.LONG, 600_000L, Range.atLeast(1), Importance.MEDIUM,
                    "Connections with no traffic (and no request being handled) for this long are closed.")
            .define(CONNECTIONS_MAX_PARTIAL_REQUEST_MS, Type.LONG, 30_000L, Range.atLeast(1), Importance.MEDIUM,
                    "A connection that has been sending one request for this long, however slowly the bytes keep "
                            + "coming, is closed (time spent waiting for " + QUEUED_MAX_REQUEST_BYTES + " memory does not count). "
                            + "Clients give up on a request after request.timeout.ms (30 s by default) anyway.")
            .define(MAX_CONNECTIONS, Type.INT, Integer.MAX_VALUE, Range.atLeast(0), Importance.MEDIUM,
                    "Most client connections open at once; beyond it a new connection is closed at once (and counted "
                            + "in a warning). Connections from the other brokers' addresses are always accepted.")
            .define(MAX_CONNECTIONS_PER_IP, Type.INT, Integer.MAX_VALUE, Range.atLeast(0), Importance.MEDIUM,
                    "Most connections open at once from one client address, unless " + MAX_CONNECTIONS_PER_IP_OVERRIDES
                            + " says otherwise; beyond it a new connection is closed at once. The other brokers' "
                            + "addresses are exempt.")
            .define(MAX_CONNECTIONS_PER_IP_OVERRIDES, Type.STRING, "", Importance.MEDIUM,
                    "Per-address exceptions to max.connections.per.ip: host-or-IP:count pairs separated by commas, "
                            + "e.g. 10.0.0.7:500,batch.example.com:2000. Host names are resolved at start-up.")
            .define(MAX_CONNECTION_CREATION_RATE, Type.INT, Integer.MAX_VALUE, Range.atLeast(0), Importance.MEDIUM,
                    "New connections per second the broker takes, over quota.window.num samples of "
                            + "quota.window.size.seconds; listener.name.<listener>." + MAX_CONNECTION_CREATION_RATE
                            + " sets a listener's own rate. A connection over either waits, up to one sample, before the "
                            + "listener takes it (and any other). The inter-broker listener counts against its own rate "
                            + "only when there are other listeners, and the other brokers' addresses never wait. "
                            + "Per client address, see the ip quota entity's connection_creation_rate.")
            .define(QUEUED_MAX_REQUESTS, Type.INT, 500, Range.atLeast(1), Importance.MEDIUM,
                    "Requests waiting for a handler before the network threads stop reading.")
            .define(QUEUED_MAX_REQUEST_BYTES, Type.LONG, 100L * 1024 * 1024, ConfigDef.LambdaValidator.with(BrokerConfig::validateQueuedMaxRequestBytes, () -> "-1 or [1,...]"),
                    Importance.MEDIUM,
                    "Heap for request bytes being read or waiting for a handler, shared by all connections. A frame's "
                            + "memory is taken as its bytes arrive (at most four times what arrived), never from the size "
                            + "prefix alone, and given back when its handler returns; a connection whose next bytes do not "
                            + "fit stops reading until memory frees. One frame at a time may go beyond this (so a frame "
                            + "larger than it can be read), and frames of at most 16 KiB are never refused (so follower "
                            + "fetches and heartbeats always get through): request memory stays below this plus "
                            + SOCKET_REQUEST_MAX_BYTES + " plus 16 KiB per connection. -1: no bound (Kafka's default).")
            .define(QUOTA_WINDOW_NUM, Type.INT, 11, Range.atLeast(1), Importance.LOW,
                    "Samples kept of each client's produce, fetch and request-time rate (client quotas).")
            .define(QUOTA_WINDOW_SIZE_SECONDS, Type.INT, 1, Range.atLeast(1), Importance.LOW,
                    "Length of one sample of a client's quota rates; a byte-rate throttle lasts at most "
                            + QUOTA_WINDOW_NUM + " times this, a request-time or connection-rate throttle at most this.")
            .define(LEADER_REPLICATION_THROTTLED_RATE, Type.LONG, Long.MAX_VALUE, Range.atLeast(0), Importance.MEDIUM,
                    "Bytes per second a leader sends, over all its throttled replicas (the topics' "
                            + LogConfig.LEADER_REPLICATION_THROTTLED_REPLICAS + "), to followers outside the ISR. "
                            + "Usually set at runtime, as kafka-reassign-partitions --throttle does.")
            .define(FOLLOWER_REPLICATION_THROTTLED_RATE, Type.LONG, Long.MAX_VALUE, Range.atLeast(0), Importance.MEDIUM,
                    "Bytes per second a follower outside the ISR fetches, over all its throttled replicas (the topics' "
                            + LogConfig.FOLLOWER_REPLICATION_THROTTLED_REPLICAS + "). Usually set at runtime.")
            .define(REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND, Type.LONG, Long.MAX_VALUE, Range.atLeast(0), Importance.MEDIUM,
                    "Bytes per second copied, over all replicas moving between this broker's log dirs "
                            + "(AlterReplicaLogDirs; kafka-reassign-partitions with log_dirs). Usually set at runtime, as "
                            + "kafka-reassign-partitions --replica-alter-log-dirs-throttle does.")
            .define(AUTO_CREATE_TOPICS_ENABLE, Type.BOOLEAN, true, Importance.HIGH,
                    "Create a topic when a client asks for metadata of a topic that does not exist.")
            .define(NUM_PARTITIONS, Type.INT, 1, Range.atLeast(1), Importance.MEDIUM,
                    "Partitions of an auto-created topic, and of a created topic that does not say.")
            .define(DEFAULT_REPLICATION_FACTOR, Type.SHORT, (short) 1, Range.atLeast(1), Importance.MEDIUM,
                    "Replication factor of topics created without one.")
            .define(DELETE_TOPIC_ENABLE, Type.BOOLEAN, true, Importance.HIGH,
                    "Whether DeleteTopics requests are honoured.")
            .define(GROUP_MIN_SESSION_TIMEOUT_MS, Type.INT, 6000, Range.atLeast(1), Importance.MEDIUM,
                    "Smallest session.timeout.ms a group member may ask for.")
            .define(GROUP_MAX_SESSION_TIMEOUT_MS, Type.INT, 1_800_000, Range.atLeast(1), Importance.MEDIUM,
                    "Largest session.timeout.ms a group member may ask for.")
            .define(GROUP_INITIAL_REBALANCE_DELAY_MS, Type.INT, 3000, Range.atLeast(0), Importance.MEDIUM,
                    "How long the first rebalance of an empty group waits for more members to join, extended "
                            + "while members keep arriving, up to the rebalance timeout.")
            .define(GROUP_MAX_SIZE, Type.INT, Integer.MAX_VALUE, Range.atLeast(1), Importance.MEDIUM,
                    "The most members a classic group may have: a member that would be one more is refused with "
                            + "GROUP_MAX_SIZE_REACHED (during a rebalance, the members that rejoin last), and a consumer "
                            + "group with more classic members is not turned into a classic group. Consumer groups have "
                            + GROUP_CONSUMER_MAX_SIZE + ".")
            .define(GROUP_CONSUMER_MAX_SIZE, Type.INT, Integer.MAX_VALUE, Range.atLeast(1), Importance.MEDIUM,
                    "The most members a consumer group (group.protocol=consumer, classic members of it included) may "
                            + "have: a member that would be one more is refused with GROUP_MAX_SIZE_REACHED (a static member "
                            + "replacing its instance is not), and a larger classic group is not upgraded. Classic groups have "
                            + GROUP_MAX_SIZE + ".")
            .define(GROUP_CONSUMER_SESSION_TIMEOUT_MS, Type.INT, 45_000, Range.atLeast(1), Importance.MEDIUM,
                    "A member of a consumer group (group.protocol=consumer) that sends no heartbeat for this long is "
                            + "removed and its partitions go to the others.")
            .define(GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS, Type.INT, 5_000, Range.atLeast(1), Importance.MEDIUM,
                    "How often members of a consumer group are told to heartbeat; smaller than "
                            + GROUP_CONSUMER_SESSION_TIMEOUT_MS + ".")
            .define(GROUP_CONSUMER_MIN_SESSION_TIMEOUT_MS, Type.INT, 45_000, Range.atLeast(1), Importance.MEDIUM,
                    "The smallest consumer.session.timeout.ms a consumer group may be given with kafka-configs "
                            + "--entity-type groups.")
            .define(GROUP_CONSUMER_MAX_SESSION_TIMEOUT_MS, Type.INT, 60_000, Range.atLeast(1), Importance.MEDIUM,
                    "The largest consumer.session.timeout.ms a consumer group may be given.")
            .define(GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS, Type.INT, 5_000, Range.atLeast(1), Importance.MEDIUM,
                    "The smallest consumer.heartbeat.interval.ms a consumer group may be given.")
            .define(GROUP_CONSUMER_MAX_HEARTBEAT_INTERVAL_MS, Type.INT, 15_000, Range.atLeast(1), Importance.MEDIUM,
                    "The largest consumer.heartbeat.interval.ms a consumer group may be given.")
            .define(GROUP_CONSUMER_ASSIGNORS, Type.LIST, "uniform,range", Importance.MEDIUM,
                    "The server-side assignors of consumer groups, by name (uniform, range) or class name; the "
                            + "first is the default, members may ask for another with group.remote.assignor.")
            .define(GROUP_CONSUMER_MIGRATION_POLICY, Type.STRING, ConsumerGroupMigrationPolicy.BIDIRECTIONAL.toString(),
                    ConfigDef.CaseInsensitiveValidString.in(Utils.enumOptions(ConsumerGroupMigrationPolicy.class)), Importance.MEDIUM,
                    "Which non-empty groups change protocol (empty groups always do): upgrade turns a classic group of "
                            + "consumers into a consumer group when a member with group.protocol=consumer joins, its classic "
                            + "members staying on; downgrade turns a consumer group back into a classic group when its last "
                            + "member with group.protocol=consumer leaves, or is replaced by a classic member with its "
                            + "group.instance.id; bidirectional allows both; disabled neither, and no classic member joins "
                            + "a consumer group that has members.")
            .define(OFFSETS_TOPIC_NUM_PARTITIONS, Type.INT, 50, Range.atLeast(1), Importance.HIGH,
                    "Partitions of __consumer_offsets when it is created; a group is coordinated by the leader "
                            + "of partition abs(hash(group)) % partitions. Fixed once the topic exists.")
            .define(OFFSETS_RETENTION_MINUTES, Type.INT, 7 * 24 * 60, Range.atLeast(1), Importance.HIGH,
                    "Committed offsets of a group are dropped once the group has been empty, and not committed "
                            + "to, for this long.")
            .define(OFFSETS_RETENTION_CHECK_INTERVAL_MS, Type.LONG, 600_000L, Range.atLeast(1), Importance.HIGH,
                    "How often expired committed offsets are looked for.")
            .define(OFFSET_METADATA_MAX_BYTES, Type.INT, 4096, Range.atLeast(0), Importance.HIGH,
                    "Largest metadata string accepted with a committed offset.")
            .define(OFFSETS_TOPIC_REPLICATION_FACTOR, Type.SHORT, (short) 3, Range.atLeast(1), Importance.HIGH,
                    "Replication factor of __consumer_offsets when it is created; fewer if fewer brokers are alive then.")
            .define(OFFSETS_COMMIT_TIMEOUT_MS, Type.INT, 5000, Range.atLeast(1), Importance.HIGH,
                    "An offset commit is answered once the ISR of its __consumer_offsets partition has it (as for "
                            + "acks=-1, respecting min.insync.replicas), or with COORDINATOR_NOT_AVAILABLE after this long.")
            .define(TRANSACTION_STATE_LOG_NUM_PARTITIONS, Type.INT, 50, Range.atLeast(1), Importance.HIGH,
                    "Partitions of __transaction_state when it is created; a transactional id is coordinated by the "
                            + "leader of partition abs(hash(id)) % partitions. Fixed once the topic exists.")
            .define(TRANSACTION_STATE_LOG_REPLICATION_FACTOR, Type.SHORT, (short) 3, Range.atLeast(1), Importance.HIGH,
                    "Replication factor of __transaction_state when it is created; fewer if fewer brokers are alive then.")
            .define(TRANSACTION_STATE_LOG_MIN_ISR, Type.INT, 2, Range.atLeast(1), Importance.HIGH,
                    "min.insync.replicas of __transaction_state when it is created (capped at its replication factor).")
            .define(TRANSACTION_STATE_LOG_SEGMENT_BYTES, Type.INT, 100 * 1024 * 1024, Range.atLeast(1), Importance.HIGH,
                    "segment.bytes of __transaction_state when it is created.")
            .define(TRANSACTION_MAX_TIMEOUT_MS, Type.INT, 900_000, Range.atLeast(1), Importance.HIGH,
                    "Largest transaction.timeout.ms a producer may ask for; InitProducerId with a larger one gets "
                            + "INVALID_TRANSACTION_TIMEOUT.")
            .define(TRANSACTIONAL_ID_EXPIRATION_MS, Type.INT, 7 * 24 * 3600 * 1000, Range.atLeast(1), Importance.HIGH,
                    "A transactional id with no open transaction whose state has not changed for this long is forgotten "
                            + "(a tombstone in __transaction_state); its next producer gets a new producer id.")
            .define(TRANSACTION_REMOVE_EXPIRED_CLEANUP_INTERVAL_MS, Type.INT, 3_600_000, Range.atLeast(1), Importance.LOW,
                    "How often the transaction coordinator forgets transactional ids idle for transactional.id.expiration.ms.")
            .define(TRANSACTION_PARTITION_VERIFICATION_ENABLE, Type.BOOLEAN, true, Importance.LOW,
                    "Whether a partition leader asks the transaction coordinator before a transactional write of a "
                            + "producer of transaction version 0 or 1 opens a transaction on the partition, and refuses it "
                            + "unless the partition is in the producer's transaction (KIP-890), so a late write cannot "
                            + "leave a transaction no one ends. Producers of transaction version 2 are always checked: "
                            + "their partitions are added that way. Read at start-up (Kafka can change it at run time).")
            .define(TRANSACTION_ABORT_TIMED_OUT_CLEANUP_INTERVAL_MS, Type.INT, 10_000, Range.atLeast(1), Importance.LOW,
                    "How often the transaction coordinator aborts transactions open for longer than their timeout.")
            .define(REPLICA_LAG_TIME_MAX_MS, Type.LONG, 30_000L, Range.atLeast(1), Importance.HIGH,
                    "A follower that has not caught up with the leader's log end for this long leaves the ISR.")
            .define(REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS, Type.LONG, 5000L, Range.atLeast(1), Importance.HIGH,
                    "How often each log dir's replication-offset-checkpoint (the replicas' high watermarks, read "
                            + "again at start-up) is written; it is also written at shutdown.")
            .define(REPLICA_FETCH_MAX_BYTES, Type.INT, 1024 * 1024, Range.atLeast(1), Importance.MEDIUM,
                    "Bytes a follower asks for per partition in each fetch (the first batch is always returned whole).")
            .define(REPLICA_FETCH_RESPONSE_MAX_BYTES, Type.INT, 10 * 1024 * 1024, Range.atLeast(1), Importance.MEDIUM,
                    "Bytes a follower asks for per fetch over all partitions.")
            .define(REPLICA_FETCH_WAIT_MAX_MS, Type.INT, 500, Range.atLeast(0), Importance.MEDIUM,
                    "How long a follower's fetch waits at the leader for new data.")
            .define(REPLICA_FETCH_BACKOFF_MS, Type.INT, 1000, Range.atLeast(0), Importance.MEDIUM,
                    "Pause of a follower's partition after a fetch error for it (its fetcher goes on with the others), "
                            + "or of the fetcher after a failed request.")
            .define(NUM_REPLICA_FETCHERS, Type.INT, 1, Range.atLeast(1), Importance.HIGH,
                    "Fetcher threads per leader broker; the partitions a broker follows are spread over them.")
            .define(MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS, Type.INT, 1000, Range.atLeast(0), Importance.MEDIUM,
                    "Incremental fetch sessions (KIP-227) this broker keeps: a consumer or follower in a session sends "
                            + "and gets only the partitions that changed. When all are taken, a new session evicts one by "
                            + "Kafka's rules (a session unused for 2 minutes; a consumer's for a follower's; one older than "
                            + "2 minutes for one with more partitions), else the fetcher goes on with full fetches. 0 turns "
                            + "sessions off.")
            .define(UNCLEAN_LEADER_ELECTION_ENABLE, Type.BOOLEAN, false, Importance.HIGH,
                    "Whether a replica outside the ISR may become leader when no ISR member is alive (losing "
                            + "committed records). When false such a partition stays offline until an ISR member returns.")
            .define(AUTO_LEADER_REBALANCE_ENABLE, Type.BOOLEAN, true, Importance.HIGH,
                    "Whether the controller moves leadership back to each partition's preferred (first) replica "
                            + "once it is alive and in the ISR.")
            .define(LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS, Type.LONG, 300L, Range.atLeast(1), Importance.HIGH,
                    "How often the controller looks for partitions not led by their preferred replica.")
            .define(CONTROLLED_SHUTDOWN_ENABLE, Type.BOOLEAN, true, Importance.MEDIUM,
                    "Whether a clean shutdown first asks the controller to move leadership away from this broker.")
            .define(CONTROLLED_SHUTDOWN_TIMEOUT_MS, Type.LONG, 30_000L, Range.atLeast(0), Importance.MEDIUM,
                    "How long a clean shutdown waits for its partitions' leadership to move away.")
            .define(PRODUCER_ID_EXPIRATION_MS, Type.INT, (int) IdempotentAppender.DEFAULT_PRODUCER_ID_EXPIRATION_MS,
                    Range.atLeast(1), Importance.LOW,
                    "An idempotent producer that has not written to a partition for this long (broker time) is "
                            + "forgotten there; if it comes back, its next batch is accepted at any sequence, as for a "
                            + "new producer.")
            .define(PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS, Type.INT, 600_000, Range.atLeast(1), Importance.LOW,
                    "How often expired producer ids are looked for.");

    private final Listeners listeners;
    private final ConnectionLimits connectionLimits;

    private static void validateHttpListeners(String name, Object value) {
        try {
            HttpListeners.parse((String) value);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(name, value, e.getMessage());
        }
    }

    private static void validateQueuedMaxRequestBytes(String name, Object value) {
        long bytes = (Long) value;
        if (bytes != -1 && bytes < 1) {
            throw new ConfigException(name, value, "must be -1 (no bound) or at least 1");
        }
    }

    /** @throws ConfigException on an unknown type, an invalid value or a malformed listener */
    public BrokerConfig(Map<?, ?> props) {
        super(DEFINITION, props, false);
        this.listeners = Listeners.parse(getString(LISTENERS), getString(Listeners.ADVERTISED_LISTENERS),
                getString(Listeners.LISTENER_SECURITY_PROTOCOL_MAP), getString(Listeners.INTER_BROKER_LISTENER_NAME));
        SecurityConfigs.rejectUnknown(originalsStrings(), DEFINITION.names(), listeners);
        validateSaslMechanisms();
        this.connectionLimits = new ConnectionLimits(getInt(MAX_CONNECTIONS), getInt(MAX_CONNECTIONS_PER_IP),
                perIpOverrides(getString(MAX_CONNECTIONS_PER_IP_OVERRIDES)));
    }

    /**
     * Each listener's own SASL settings are valid, and the inter-broker listener, if SASL, enables the mechanism the
     * brokers replicate with (as Kafka requires): refused here, at start-up, rather than when a connection uses them.
     */
    private void validateSaslMechanisms() {
        for (Listener listener : listeners.bound()) {
            Map<String, Object> settings = securitySettings(listener); // parses and validates the listener's overrides
            if (listener.sasl() && listener.name().equals(listeners.interBrokerName())) {
                Object mechanism = settings.get(SecurityConfigs.SASL_MECHANISM_INTER_BROKER_PROTOCOL);
                Object enabled = settings.get(SecurityConfigs.SASL_ENABLED_MECHANISMS);
                if (!((List<?>) enabled).contains(mechanism)) {
                    throw new ConfigException(SecurityConfigs.SASL_MECHANISM_INTER_BROKER_PROTOCOL, mechanism,
                            "the inter-broker listener " + listener.name().value() + " does not enable this mechanism (its "
                                    + SecurityConfigs.SASL_ENABLED_MECHANISMS + ": " + enabled + ")");
                }
            }
        }
    }

    /** The schema of every broker key, for generated docs. */
    public static ConfigDef configDef() {
        return new ConfigDef(DEFINITION);
    }

    public int brokerId() {
        return getInt(BROKER_ID);
    }

    public Listeners listeners() {
        return listeners;
    }

    /**
     * The {@code ssl.*} and {@code sasl.*} settings of one listener, as kafka-clients' security classes take them:
     * the broker-wide values, overridden by the {@code listener.name.<listener>.} ones, plus the listener's
     * per-mechanism JAAS configurations and session lifetimes ({@code <mechanism>.sasl.jaas.config},
     * {@code <mechanism>.connections.max.reauth.ms}).
     */
    public Map<String, Object> securitySettings(Listener listener) {
        Map<String, Object> settings = new HashMap<>(valuesWithPrefixOverride(listener.configPrefix()));
        originalsWithPrefix(listener.configPrefix()).forEach((key, value) -> {
            if (key.endsWith("." + SaslConfigs.SASL_JAAS_CONFIG)) {
                settings.put(key, new Password(value.toString()));
            } else if (key.endsWith("." + SecurityConfigs.CONNECTIONS_MAX_REAUTH_MS)) {
                settings.put(key, ConfigDef.parseType(listener.configPrefix() + key, value, Type.LONG));
            }
        });
        return settings;
    }

    /** Whether requests are authorized against the ACLs ({@code authorizer.class.name} is set). */
    public boolean authorizerEnabled() {
        return !getString(SecurityConfigs.AUTHORIZER_CLASS_NAME).isBlank();
    }

    public Set<KafkaPrincipal> superUsers() {
        return AclAuthorizer.parseSuperUsers(getString(SecurityConfigs.SUPER_USERS));
    }

    /** The delegation token keys; tokens are disabled when neither secret key is set. */
    public DelegationTokenSettings delegationTokens() {
        Password secret = getPassword(SecurityConfigs.DELEGATION_TOKEN_SECRET_KEY);
        if (secret == null) {
            secret = getPassword(SecurityConfigs.DELEGATION_TOKEN_MASTER_KEY);
        }
        return new DelegationTokenSettings(Optional.ofNullable(secret).map(Password::value).filter(key -> !key.isEmpty()),
                getLong(SecurityConfigs.DELEGATION_TOKEN_MAX_LIFETIME_MS), getLong(SecurityConfigs.DELEGATION_TOKEN_EXPIRY_TIME_MS),
                getLong(SecurityConfigs.DELEGATION_TOKEN_EXPIRY_CHECK_INTERVAL_MS));
    }

    public boolean allowEveryoneIfNoAclFound() {
        return getBoolean(SecurityConfigs.ALLOW_EVERYONE_IF_NO_ACL_FOUND);
    }

    /** Empty when the broker should run its own embedded ZooKeeper. */
    /** {@code http.listeners}: the addresses of the HTTP endpoint, none when it is off. */
    public List<InetSocketAddress> httpListeners() {
        return HttpListeners.parse(getString(HTTP_LISTENERS));
    }

    public String zookeeperConnect() {
        return getString(ZOOKEEPER_CONNECT).trim();
    }

    public int zookeeperEmbeddedPort() {
        return getInt(ZOOKEEPER_EMBEDDED_PORT);
    }

    public int zookeeperSessionTimeoutMs() {
        return getInt(ZOOKEEPER_SESSION_TIMEOUT_MS);
    }

    public int zookeeperConnectionTimeoutMs() {
        return getInt(ZOOKEEPER_CONNECTION_TIMEOUT_MS);
    }

    public boolean zookeeperSetAcl() {
        return getBoolean(ZOOKEEPER_SET_ACL);
    }

    public int ioThreads() {
        return getInt(NUM_IO_THREADS);
    }

    public int maxIncrementalFetchSessionCacheSlots() {
        return getInt(MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS);
    }

    public int queuedMaxRequests() {
        return getInt(QUEUED_MAX_REQUESTS);
    }

    public boolean autoCreateTopics() {
        return getBoolean(AUTO_CREATE_TOPICS_ENABLE);
    }

    public int defaultPartitions() {
        return getInt(NUM_PARTITIONS);
    }

    public short defaultReplicationFactor() {
        return getShort(DEFAULT_REPLICATION_FACTOR);
    }

    public boolean transactionPartitionVerification() {
        return getBoolean(TRANSACTION_PARTITION_VERIFICATION_ENABLE);
    }

    public boolean deleteTopicEnable() {
        return getBoolean(DELETE_TOPIC_ENABLE);
    }

    public int offsetsTopicPartitions() {
        return getInt(OFFSETS_TOPIC_NUM_PARTITIONS);
    }

    public short offsetsTopicReplicationFactor() {
        return getShort(OFFSETS_TOPIC_REPLICATION_FACTOR);
    }

    public int offsetsCommitTimeoutMs() {
        return getInt(OFFSETS_COMMIT_TIMEOUT_MS);
    }

    /** The replication settings, as the replica and controller packages take them. */
    public ReplicationConfig replicationConfig(BrokerConnector connector) {
        return new ReplicationConfig(brokerId(), getLong(REPLICA_LAG_TIME_MAX_MS),
                getInt(REPLICA_FETCH_MAX_BYTES), getInt(REPLICA_FETCH_RESPONSE_MAX_BYTES), getInt(REPLICA_FETCH_WAIT_MAX_MS),
                getInt(REPLICA_FETCH_BACKOFF_MS), getInt(NUM_REPLICA_FETCHERS), getBoolean(UNCLEAN_LEADER_ELECTION_ENABLE),
                getBoolean(AUTO_LEADER_REBALANCE_ENABLE), 1000L * getLong(LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS),
                getBoolean(CONTROLLED_SHUTDOWN_ENABLE), getLong(CONTROLLED_SHUTDOWN_TIMEOUT_MS),
                getLong(REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS), connector);
    }

    public long producerIdExpirationMs() {
        return getInt(PRODUCER_ID_EXPIRATION_MS);
    }

    public long producerIdExpirationCheckIntervalMs() {
        return getInt(PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS);
    }

    public TransactionConfig transactionConfig() {
        short replicas = getShort(TRANSACTION_STATE_LOG_REPLICATION_FACTOR);
        return new TransactionConfig(getInt(TRANSACTION_STATE_LOG_NUM_PARTITIONS), replicas,
                Math.min(getInt(TRANSACTION_STATE_LOG_MIN_ISR), replicas), getInt(TRANSACTION_STATE_LOG_SEGMENT_BYTES),
                getInt(TRANSACTION_MAX_TIMEOUT_MS), getInt(TRANSACTION_ABORT_TIMED_OUT_CLEANUP_INTERVAL_MS),
                getInt(TRANSACTIONAL_ID_EXPIRATION_MS), getInt(TRANSACTION_REMOVE_EXPIRED_CLEANUP_INTERVAL_MS),
                getInt(OFFSETS_COMMIT_TIMEOUT_MS));
    }

    public GroupConfig groupConfig() {
        return new GroupConfig(getInt(GROUP_MIN_SESSION_TIMEOUT_MS), getInt(GROUP_MAX_SESSION_TIMEOUT_MS),
                getInt(GROUP_INITIAL_REBALANCE_DELAY_MS), 60_000L * getInt(OFFSETS_RETENTION_MINUTES),
                getLong(OFFSETS_RETENTION_CHECK_INTERVAL_MS), getInt(OFFSET_METADATA_MAX_BYTES), getInt(GROUP_MAX_SIZE));
    }

    /** @throws org.apache.kafka.common.config.ConfigException if an assignor is unknown or the heartbeat is not shorter than the session */
    public ConsumerGroupSettings consumerGroupSettings() {
        return new ConsumerGroupSettings(getInt(GROUP_CONSUMER_SESSION_TIMEOUT_MS), getInt(GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS),
                ConsumerGroupSettings.assignors(getList(GROUP_CONSUMER_ASSIGNORS)),
                ConsumerGroupMigrationPolicy.parse(getString(GROUP_CONSUMER_MIGRATION_POLICY)), getInt(GROUP_CONSUMER_MAX_SIZE));
    }

    public List<Path> logDirs() {
        return getList(LogConfig.LOG_DIRS).stream().map(Path::of).toList();
    }

    /** The settings of tiered storage (remote.log.storage.system.enable is among the log defaults). */
    public RemoteLogConfig remoteLogConfig() {
        return RemoteLogConfig.from(values());
    }

    /** Broker-wide log defaults (topic overrides are applied on top per topic). */
    public LogConfig logDefaults() {
        return LogConfig.fromBroker(originals());
    }

    public long leaderReplicationThrottledRate() {
        return getLong(LEADER_REPLICATION_THROTTLED_RATE);
    }

    public long followerReplicationThrottledRate() {
        return getLong(FOLLOWER_REPLICATION_THROTTLED_RATE);
    }

    public long replicaAlterLogDirsIoMaxBytesPerSecond() {
        return getLong(REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND);
    }

    public int quotaWindowNum() {
        return getInt(QUOTA_WINDOW_NUM);
    }

    public int quotaWindowSizeSeconds() {
        return getInt(QUOTA_WINDOW_SIZE_SECONDS);
    }

    /**
     * {@code max.connection.creation.rate}, and each listener's own ({@code listener.name.<listener>.} prefixed) where
     * set; the inter-broker listener is left out of the broker-wide rate when there are other listeners, as in Kafka.
     */
    public ConnectionRateLimits connectionRateLimits() {
        Map<ListenerName, Integer> perListener = new HashMap<>();
        for (Listener listener : listeners.bound()) {
            if (originals().containsKey(listener.configPrefix() + MAX_CONNECTION_CREATION_RATE)) {
                perListener.put(listener.name(), (Integer) valuesWithPrefixOverride(listener.configPrefix()).get(MAX_CONNECTION_CREATION_RATE));
            }
        }
        Optional<ListenerName> protectedListener = listeners.bound().size() > 1 ? Optional.of(listeners.interBroker().name()) : Optional.empty();
        return new ConnectionRateLimits(getInt(MAX_CONNECTION_CREATION_RATE), perListener, protectedListener);
    }

    public SocketServerConfig socketServerConfig(Listener listener, ChannelSecurity security) {
        String host = listener.host().isEmpty() ? "0.0.0.0" : listener.host();
        return new SocketServerConfig(new InetSocketAddress(host, listener.port()),
                getInt(NUM_NETWORK_THREADS), getInt(SOCKET_REQUEST_MAX_BYTES), getLong(CONNECTIONS_MAX_IDLE_MS),
                getLong(CONNECTIONS_MAX_PARTIAL_REQUEST_MS), queuedMaxRequests(), getLong(QUEUED_MAX_REQUEST_BYTES),
                connectionLimits, getInt(SOCKET_SEND_BUFFER_BYTES), getInt(SOCKET_RECEIVE_BUFFER_BYTES), security);
    }

    /** The per-address overrides: {@code host:count,...}, host names resolved now. */
    private static Map<InetAddress, Integer> perIpOverrides(String value) {
        Map<InetAddress, Integer> overrides = new HashMap<>();
        for (String entry : value.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            int colon = entry.lastIndexOf(':');
            try {
                if (colon <= 0) {
                    throw new NumberFormatException("no count");
                }
                int count = Integer.parseInt(entry.substring(colon + 1).trim());
                if (count < 0) {
                    throw new NumberFormatException("negative count");
                }
                overrides.put(InetAddress.getByName(entry.substring(0, colon).trim()), count);
            } catch (NumberFormatException e) {
                throw new ConfigException(MAX_CONNECTIONS_PER_IP_OVERRIDES, value, "expected host:count pairs, got '" + entry + "'");
            } catch (UnknownHostException e) {
                throw new ConfigException(MAX_CONNECTIONS_PER_IP_OVERRIDES, value, "unknown host in '" + entry + "'");
            }
        }
        return overrides;
    }
}
