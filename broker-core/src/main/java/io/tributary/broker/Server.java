package io.tributary.broker;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.api.ApiSettings;
import io.tributary.broker.api.BrokerIdentity;
import io.tributary.broker.log.AppendOrigin;
import io.tributary.broker.log.IdempotentAppender;
import io.tributary.broker.api.RequestDispatcher;
import io.tributary.broker.api.RequestHandlerPool;
import io.tributary.broker.cluster.BrokerRegistry;
import io.tributary.broker.cluster.BrokerConfigStore;
import io.tributary.broker.cluster.DynamicBrokerConfig;
import io.tributary.broker.cluster.GroupConfigStore;
import io.tributary.broker.cluster.GroupConfigs;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.ProducerIdManager;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.cluster.TopicStore;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.cluster.ZooKeeperAcls;
import io.tributary.broker.cluster.ZooKeeperLogin;
import io.tributary.broker.cluster.ClientQuotaStore;
import io.tributary.broker.quota.ClientQuotaEnforcer;
import io.tributary.broker.quota.QuotaConfigWatcher;
import io.tributary.broker.controller.ClusterView;
import io.tributary.broker.controller.PartitionState;
import io.tributary.broker.controller.ControlledShutdown;
import io.tributary.broker.controller.Controller;
import io.tributary.broker.fetch.FetchSessionCache;
import io.tributary.broker.controller.PartitionHealth;
import io.tributary.broker.controller.PartitionStateStore;
import io.tributary.broker.controller.TopicPaths;
import io.tributary.broker.group.ClusterTopics;
import io.tributary.broker.group.GroupServices;
import io.tributary.broker.txn.MarkerAppender;
import io.tributary.broker.txn.TransactionConfig;
import io.tributary.broker.txn.TransactionServices;
import io.tributary.broker.txn.TransactionStateStore;
import io.tributary.broker.group.OffsetStore;
import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.log.ProducerStateManager;
import io.tributary.broker.log.cleaner.CleanerLogState;
import io.tributary.broker.log.cleaner.LogCleaner;
import io.tributary.broker.log.remote.RemoteLogManager;
import io.tributary.broker.log.remote.RemoteLogReader;
import io.tributary.broker.log.remote.RemoteStorage;
import io.tributary.broker.log.remote.RemoteStorages;
import io.tributary.broker.metrics.BrokerMetrics;
import io.tributary.broker.status.BrokerStatus;
import io.tributary.http.HttpEndpoint;
import io.tributary.broker.network.RequestChannel;
import io.tributary.broker.network.SocketServer;
import io.tributary.broker.replica.BrokerConnector;
import io.tributary.broker.purgatory.Purgatory;
import io.tributary.broker.replica.HighWatermarkCheckpoints;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.replica.ReplicationConfig;
import io.tributary.broker.security.AclAuthorizer;
import io.tributary.broker.security.DelegationTokens;
import io.tributary.broker.security.InterBrokerConnector;
import io.tributary.broker.security.InterBrokerCredentials;
import io.tributary.broker.security.InterBrokerPrincipal;
import io.tributary.broker.security.Listener;
import io.tributary.broker.security.ListenerSecurity;
import io.tributary.broker.security.RegisteredBrokerAddresses;
import io.tributary.broker.security.RegisteredBrokerFollowers;
import io.tributary.broker.security.ScramCredentialCache;
import io.tributary.broker.security.ScramUsers;
import io.tributary.broker.security.TlsFileWatcher;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.security.token.delegation.internals.DelegationTokenCache;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One broker: wires ZooKeeper (embedded or external), the cluster watches, the controller, the
 * partition logs and their replicas, the APIs and the socket server, and takes them down in the
 * order a clean shutdown needs: hand leadership over (controlled shutdown), stop accepting, answer
 * what is in flight, stop replicating, flush and mark the logs clean, deregister.
 */
public final class Server implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Server.class);
    private static final long PRODUCER_SNAPSHOT_INTERVAL_MS = 30_000;
    private static final String EMBEDDED_ZOOKEEPER_DIR = "zookeeper";
    private static final short ACKS_ALL = -1;

    private EmbeddedZooKeeper embeddedZooKeeper;
    private ZkClient zk;
    private ClientQuotaEnforcer quotas;
    private QuotaConfigWatcher quotaWatcher;
    private DynamicBrokerConfig dynamicConfig;
    private GroupConfigs groupConfigs;
    private LogManager logs;
    private LogCleaner cleaner;
    private RemoteStorage remoteStorage;
    private RemoteLogManager remoteLogs;
    private RemoteLogReader remoteReader;
    private BrokerRegistry registry;
    private ClusterView cluster;
    private Controller controller;
    private ReplicaManager replicas;
    private ControlledShutdown controlledShutdown;
    private ReplicationConfig replication;
    private Purgatory<TopicPartition> fetchWaiters;
    private IdempotentAppender appender;
    private GroupServices groups;
    private TransactionServices transactions;
    private ScheduledExecutorService producerStateTasks;
    private RequestHandlerPool handlers;
    private ScramCredentialCache scramCredentials;
    private AclAuthorizer authorizer;
    private DelegationTokens delegationTokens;
    private final TlsFileWatcher tlsFiles = new TlsFileWatcher();
    private BrokerConnector interBrokerConnector;
    private HttpEndpoint http;
    private BrokerMetrics metrics;
    private BrokerStatus status;
    /** One per listener, in the order of {@code listeners}. */
    private final Map<ListenerName, SocketServer> socketServers = new LinkedHashMap<>();
    private final Map<ListenerName, InetSocketAddress> boundAddresses = new LinkedHashMap<>();
    private boolean closed;

    private Server() {
    }

    /** Starts a broker; on failure everything already started is stopped again. */
    public static Server start(BrokerConfig config, Time time) throws Exception {
        Server server = new Server();
        try {
            server.startUp(config, time);
            return server;
        } catch (Exception | Error e) {
            server.close();
            throw e;
        }
    }

    private void startUp(BrokerConfig config, Time time) throws Exception {
        for (Path dir : config.logDirs()) {
            Files.createDirectories(dir);
        }
        String connect = config.zookeeperConnect();
        if (connect.isEmpty()) {
            embeddedZooKeeper = EmbeddedZooKeeper.start(
                    config.logDirs().get(0).resolve(EMBEDDED_ZOOKEEPER_DIR), config.zookeeperEmbeddedPort());
            connect = embeddedZooKeeper.connectString();
        }
        zk = ZkClient.connect(connect, config.zookeeperSessionTimeoutMs(), config.zookeeperConnectionTimeoutMs(), zooKeeperAcls(config));
        Listener interBroker = config.listeners().interBroker();
        Map<String, Object> interBrokerSettings = config.securitySettings(interBroker);
        Optional<InterBrokerCredentials> ownCredentials = InterBrokerCredentials.of(interBroker, interBrokerSettings);
        Optional<KafkaPrincipal> brokerPrincipal = InterBrokerPrincipal.of(interBroker, interBrokerSettings, ownCredentials);
        interBrokerConnector = InterBrokerConnector.create(interBroker, interBrokerSettings, ownCredentials, tlsFiles);
        replication = config.replicationConfig(interBrokerConnector);
        cluster = ClusterView.start(zk, config.zookeeperConnectionTimeoutMs());
        RegisteredBrokerAddresses brokerAddresses = new RegisteredBrokerAddresses(cluster);
        controlledShutdown = new ControlledShutdown(zk, cluster, config.brokerId(), time);
        controlledShutdown.clearStale();
        logs = LogManager.open(config.logDirs(), config.logDefaults(), time);
        TopicManager topics = new TopicManager(new TopicStore(zk), logs, config.logDefaults(), config.brokerId(),
                () -> liveBrokersWith(config.brokerId()));
        fetchWaiters = new Purgatory<>("fetch");
        appender = new IdempotentAppender(time, config.producerIdExpirationMs());
        if (config.logDefaults().remoteStorageSystemEnable()) {
            remoteStorage = RemoteStorages.load(config.remoteLogConfig());
        }
        replicas = new ReplicaManager(replication, topics, logs, appender, fetchWaiters, cluster, new PartitionStateStore(zk),
                HighWatermarkCheckpoints.load(config.logDirs()), time, Optional.ofNullable(remoteStorage));
        topics.addListener(replicas);
        cleaner = LogCleaner.start(logs, new CleanerLogState() {
            @Override
            public long lastStableOffset(PartitionLog log) {
                return replicas.lastStableOffset(log);
            }

            @Override
            public Map<Long, ProducerStateManager.LastRecord> lastRecords(PartitionLog log) {
                return appender.lastRecords(log);
            }
        }, config.logDefaults(), time);
        cluster.addListener(path -> TopicPaths.topicOf(path).or(() -> TopicPaths.configuredTopicOf(path)).ifPresent(topics::refresh));
        cluster.addListener(replicas::onClusterChange);
        zk.curator().getConnectionStateListenable().addListener((client, state) ->
                replicas.zooKeeperConnectionChanged(state, zk.sessionMayExpireAfterSuspensionMs()));
        topics.load();

        scramCredentials = ScramCredentialCache.start(zk, config.zookeeperConnectionTimeoutMs());
        if (config.authorizerEnabled()) {
            authorizer = AclAuthorizer.start(zk, config.superUsers(), config.allowEveryoneIfNoAclFound(), time,
                    config.zookeeperConnectionTimeoutMs());
        }
        if (config.delegationTokens().enabled()) {
            delegationTokens = DelegationTokens.start(zk, config.delegationTokens(), time, config.zookeeperConnectionTimeoutMs());
        }
        DelegationTokenCache tokenLogins = delegationTokens != null ? delegationTokens.cache()
                : new DelegationTokenCache(ScramMechanism.mechanismNames()); // none: a token login is refused as unknown
        RequestChannel channel = new RequestChannel(config.queuedMaxRequests());
        quotas = new ClientQuotaEnforcer(config.quotaWindowNum(), config.quotaWindowSizeSeconds(), config.connectionRateLimits(), time);
        for (Listener listener : config.listeners().bound()) {
            ListenerSecurity security = ListenerSecurity.create(listener, config.securitySettings(listener), scramCredentials, tokenLogins, tlsFiles);
            SocketServer server = new SocketServer(config.socketServerConfig(listener, security), channel, brokerAddresses::isLiveBroker,
                    quotas.connectionRates(), time);
            socketServers.put(listener.name(), server);
            boundAddresses.put(listener.name(), server.boundAddress());
        }
        Map<String, InetSocketAddress> advertised = advertisedAddresses(config);
        InetSocketAddress ownInterBroker = advertised.get(interBroker.name().value());
        registry = new BrokerRegistry(zk, config.brokerId(), ownInterBroker.getHostString(), ownInterBroker.getPort(),
                advertised.entrySet().stream().map(e -> e.getKey() + "://" + e.getValue().getHostString() + ":" + e.getValue().getPort()).toList(),
                protocolMap(config), time);
        BrokerIdentity identity = new BrokerIdentity(config.brokerId(), registry.clusterId(), ownInterBroker, advertised);

        OffsetStore offsets = OffsetStore.open(topics, config.offsetsTopicPartitions(), config.offsetsTopicReplicationFactor(),
                (partition, records) -> appendAsCoordinator(partition, records, config.offsetsCommitTimeoutMs()), time);
        groupConfigs = GroupConfigs.start(zk, config.zookeeperConnectionTimeoutMs());
        groups = GroupServices.start(config.groupConfig(), config.consumerGroupSettings(), groupConfigs::of, new ClusterTopics(topics),
                offsets, time);
        ProducerIdManager producerIds = new ProducerIdManager(zk, config.brokerId());
        TransactionConfig txnConfig = config.transactionConfig();
        TransactionStateStore txnStates = TransactionStateStore.open(topics, txnConfig,
                (partition, records) -> appendAsCoordinator(partition, records, txnConfig.writeTimeoutMs()), time);
        MarkerAppender markers = new MarkerAppender(replicas, groups.offsets()::transactionCompleted,
                txnConfig.writeTimeoutMs(), time);
        transactions = TransactionServices.start(txnConfig, txnStates, producerIds::nextId, new TransactionServices.MarkerRoutes(
                config.brokerId(), markers, this::leaderOf, cluster::broker, interBrokerConnector), time);
        if (remoteStorage != null) {
            remoteLogs = new RemoteLogManager(remoteStorage, config.remoteLogConfig(), logs, replicas, time);
            remoteReader = new RemoteLogReader(remoteStorage, remoteLogs, config.remoteLogConfig().readerThreads());
            remoteLogs.start();
            log.info("tiered storage on, remote storage at {}", config.remoteLogConfig().hdfsUri());
        }
        replicas.addLeadershipListener(new ReplicaManager.LeadershipListener() {
            @Override
            public void becameLeader(TopicPartition partition, int leaderEpoch) {
                if (remoteLogs != null) {
                    remoteLogs.becameLeader(partition, leaderEpoch);
                }
                if (partition.topic().equals(OffsetStore.TOPIC)) {
                    groups.becameLeader(partition.partition(), leaderEpoch);
                } else if (partition.topic().equals(TransactionStateStore.TOPIC)) {
                    transactions.becameLeader(partition.partition(), leaderEpoch);
                }
            }

            @Override
            public void resigned(TopicPartition partition) {
                if (remoteLogs != null) {
                    remoteLogs.resigned(partition);
                }
                if (partition.topic().equals(OffsetStore.TOPIC)) {
                    groups.resigned(partition.partition());
                } else if (partition.topic().equals(TransactionStateStore.TOPIC)) {
                    transactions.resigned(partition.partition());
                }
            }
        });
        quotaWatcher = QuotaConfigWatcher.start(zk, quotas, config.zookeeperConnectionTimeoutMs());
        dynamicConfig = DynamicBrokerConfig.start(zk, config.brokerId(), config.zookeeperConnectionTimeoutMs());
        DynamicConfigApplier applier = new DynamicConfigApplier(config, topics, replicas);
        dynamicConfig.addListener(applier::apply);
        applier.apply(dynamicConfig);
        controller = Controller.create(cluster, zk, replication, time);
        FetchSessionCache fetchSessions = new FetchSessionCache(config.maxIncrementalFetchSessionCacheSlots(),
                FetchSessionCache.EVICTION_MS, time);
        RequestDispatcher dispatcher = RequestDispatcher.create(identity, topics, producerIds,
                replicas, cluster, fetchWaiters, groups, transactions, markers, offsets, apiSettings(config),
                new ClientQuotaStore(zk), quotas,
                new RegisteredBrokerFollowers(cluster, interBroker, brokerPrincipal, brokerAddresses),
                new ScramUsers(zk),
                ownCredentials.map(InterBrokerCredentials::principal), Optional.ofNullable(authorizer), Optional.ofNullable(delegationTokens), controller, dynamicConfig,
                new BrokerConfigStore(zk), new GroupConfigStore(zk), fetchSessions, Optional.ofNullable(remoteReader),
                config.remoteLogConfig().fetchMaxWaitMs());
        status = BrokerStatus.create(config.brokerId(), identity.clusterId(), cluster, groups, interBrokerConnector, time);
        metrics = new BrokerMetrics(new BrokerMetrics.Sources(replicas.topicStats(), replicas.isrChanges(),
                new PartitionHealth(cluster, config.brokerId()), channel::queuedRequests, channel.networkIdle(), status::groupLags,
                fetchSessions));
        logs.flushTimes().listen(metrics::recordLogFlush);
        metrics.bind(quotas);
        handlers = new RequestHandlerPool(config.ioThreads(), channel,
                request -> metrics.requestLatency().time(request.body(), () -> dispatcher.dispatch(request)));
        producerStateTasks = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tributary-producer-state");
            thread.setDaemon(true);
            return thread;
        });
        producerStateTasks.scheduleWithFixedDelay(appender::snapshotAll, PRODUCER_SNAPSHOT_INTERVAL_MS, PRODUCER_SNAPSHOT_INTERVAL_MS, TimeUnit.MILLISECONDS);
        producerStateTasks.scheduleWithFixedDelay(appender::removeExpiredProducers, config.producerIdExpirationCheckIntervalMs(),
                config.producerIdExpirationCheckIntervalMs(), TimeUnit.MILLISECONDS);

        handlers.start();
        socketServers.values().forEach(SocketServer::start);
        registry.register(config.zookeeperConnectionTimeoutMs(), embeddedZooKeeper != null);
        controller.start(embeddedZooKeeper != null);
        if (!config.httpListeners().isEmpty()) {
            http = HttpEndpoint.start(config.httpListeners(), Map.of(
                    "/metrics", new HttpEndpoint.Resource(HttpEndpoint.PROMETHEUS_TEXT, metrics::scrape),
                    "/", new HttpEndpoint.Resource(HttpEndpoint.HTML, status::page)));
            log.info("serving GET /metrics and the status page GET / on {}", http.addresses());
        }
        log.info("Tributary broker {} listening on {}, data in {}, ZooKeeper at {}{}", config.brokerId(), listening(config, interBroker),
                config.logDirs(), connect, embeddedZooKeeper != null ? " (embedded)" : "");
    }

    /**
     * The ACLs of the nodes this broker creates: secure with {@code zookeeper.set.acl}, which needs a SASL login to
     * ZooKeeper (a node whose ACL names its creator cannot be created by an anonymous client).
     */
    private static ZooKeeperAcls zooKeeperAcls(BrokerConfig config) {
        if (config.zookeeperSetAcl() && ZooKeeperLogin.section().isEmpty()) {
            throw new ConfigException(BrokerConfig.ZOOKEEPER_SET_ACL, true, "the broker has no SASL login to ZooKeeper: "
                    + ZooKeeperLogin.describeMissing() + " (docs/operations.md, Securing a cluster)");
        }
        return ZooKeeperAcls.of(config.zookeeperSetAcl());
    }

    /**
     * The bound listeners for the start-up line: {@code host:port} for a lone PLAINTEXT listener (the line scripts
     * read for the port), else {@code NAME://host:port (PROTOCOL)} each, the inter-broker one marked.
     */
    private String listening(BrokerConfig config, Listener interBroker) {
        if (boundAddresses.size() == 1 && interBroker.name().value().equals("PLAINTEXT") && interBroker.protocol() == SecurityProtocol.PLAINTEXT) {
            InetSocketAddress address = boundAddresses.values().iterator().next();
            return address.getHostString() + ":" + address.getPort();
        }
        List<String> described = new ArrayList<>();
        boundAddresses.forEach((name, address) -> described.add(name.value() + "://" + address.getHostString() + ":" + address.getPort()
                + " (" + config.listeners().bound(name).orElseThrow().protocol() + (name.equals(interBroker.name()) ? ", inter-broker)" : ")")));
        return String.join(", ", described);
    }

    /**
     * Each advertised listener's address as registered: port 0 becomes the port its listener bound, an empty or
     * wildcard host the loopback address (as before there were several listeners).
     */
    private Map<String, InetSocketAddress> advertisedAddresses(BrokerConfig config) {
        Map<String, InetSocketAddress> advertised = new LinkedHashMap<>();
        config.listeners().advertised().forEach((name, listener) -> {
            String host = listener.host().isEmpty() || listener.host().equals("0.0.0.0") ? "127.0.0.1" : listener.host();
            int port = listener.port() == 0 ? boundAddresses.get(name).getPort() : listener.port();
            advertised.put(name.value(), InetSocketAddress.createUnresolved(host, port));
        });
        return advertised;
    }

    private static Map<String, String> protocolMap(BrokerConfig config) {
        Map<String, String> protocols = new LinkedHashMap<>();
        config.listeners().advertised().forEach((name, listener) -> protocols.put(name.value(), listener.protocol().name));
        return protocols;
    }

    private static ApiSettings apiSettings(BrokerConfig config) {
        return new ApiSettings(config.autoCreateTopics(), config.defaultPartitions(), config.defaultReplicationFactor(),
                config.deleteTopicEnable(), BrokerConfig.configDef(), config.originals(),
                config.transactionPartitionVerification());
    }

    /** The leader of {@code partition} as ZooKeeper has it, if it has one. */
    private OptionalInt leaderOf(TopicPartition partition) {
        return cluster.partitionState(partition).filter(PartitionState::hasLeader)
                .map(state -> OptionalInt.of(state.leader())).orElse(OptionalInt.empty());
    }

    /**
     * The coordinators' records (offsets, transaction states) are appended as an acks=-1 produce would be (refused
     * below the topic's min.insync.replicas) and count once the ISR has them, or fail after {@code timeoutMs}.
     */
    private CompletableFuture<Errors> appendAsCoordinator(TopicPartition partition, MemoryRecords records, long timeoutMs) {
        LogAppendInfo info = replicas.appendAsLeader(partition, records, ACKS_ALL, AppendOrigin.COORDINATOR);
        return replicas.awaitReplication(Map.of(partition, info.lastOffset() + 1), timeoutMs)
                .thenApply(errors -> errors.get(partition));
    }

    private Set<Integer> liveBrokersWith(int self) {
        Set<Integer> live = new HashSet<>(cluster.liveBrokers().keySet());
        live.add(self);
        return live;
    }

    /** The address of the first listener (the real port when the listener asked for port 0). */
    public InetSocketAddress boundAddress() {
        return boundAddresses.values().iterator().next();
    }

    /** The address the listener named {@code listener} bound. */
    public InetSocketAddress boundAddress(String listener) {
        InetSocketAddress address = boundAddresses.get(ListenerName.normalised(listener));
        if (address == null) {
            throw new IllegalArgumentException("no listener named " + listener);
        }
        return address;
    }

    /** Where {@code http.listeners} bound (real ports for port 0); empty when the HTTP endpoint is off. */
    public List<InetSocketAddress> httpAddresses() {
        return http == null ? List.of() : http.addresses();
    }

    public String bootstrapServers() {
        return boundAddress().getHostString() + ":" + boundAddress().getPort();
    }

    /**
     * Clean shutdown, in order: stop accepting; answer waiting fetches and in-flight requests;
     * snapshot producer state; flush the logs and mark them clean; deregister; disconnect from
     * (and stop the embedded) ZooKeeper. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        log.info("Tributary broker shutting down");
        if (controlledShutdown != null && registry != null && replication.controlledShutdown()) {
            try {
                controlledShutdown.run(replication.controlledShutdownTimeoutMs());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        socketServers.values().forEach(SocketServer::stopAccepting);
        quietly("HTTP endpoint", http);
        quietly("status", status);
        quietly("metrics", metrics);
        quietly("fetch purgatory", fetchWaiters);
        socketServers.values().forEach(server -> quietly("socket server", server));
        quietly("request handlers", handlers);
        quietly("replica manager", replicas);
        quietly("controller", controller);
        quietly("transaction coordinator", transactions);
        quietly("group coordinator", groups);
        if (producerStateTasks != null) {
            producerStateTasks.shutdownNow();
        }
        if (appender != null) {
            appender.snapshotAll();
        }
        quietly("log cleaner", cleaner);
        quietly("remote log reader", remoteReader);
        quietly("remote log tasks", remoteLogs);
        quietly("remote storage", remoteStorage);
        quietly("logs", logs);
        log.info("logs flushed and marked clean");
        quietly("TLS file watcher", tlsFiles);
        quietly("SCRAM credentials", scramCredentials);
        quietly("authorizer", authorizer);
        quietly("delegation tokens", delegationTokens);
        quietly("broker registration", registry);
        quietly("cluster watches", cluster);
        quietly("client quota watches", quotaWatcher);
        quietly("dynamic broker config watch", dynamicConfig);
        quietly("group config watch", groupConfigs);
        quietly("client quotas", quotas);
        quietly("ZooKeeper client", zk);
        quietly("embedded ZooKeeper", embeddedZooKeeper);
        log.info("Tributary broker stopped");
    }

    private static void quietly(String what, AutoCloseable resource) {
        if (resource == null) {
            return;
        }
        try {
            resource.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("error while stopping the {}", what, e);
        }
    }
}
