package io.tributary.broker.controller;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.cluster.BrokerRegistry;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.cluster.TopicStore;
import io.tributary.broker.cluster.ZkClient;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.network.ListenerName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker's picture of the cluster, kept current by ZooKeeper watches (Curator caches of
 * {@code /brokers}, {@code /controller}, {@code /admin/controlled_shutdown} and
 * {@code /config/topics}, whose changes are only passed on to the listeners): live brokers and
 * their endpoints, the controller, every partition's state. Reads are lock-free from the caches
 * and may lag ZooKeeper by a moment. Every change is also handed, as its ZooKeeper path, to the
 * listeners, one at a time on a single event thread, in the order ZooKeeper made the changes.
 */
public final class ClusterView implements AutoCloseable {
    public static final String CONTROLLER_PATH = "/controller";
    public static final String SHUTTING_DOWN_PATH = "/admin/controlled_shutdown";
    private static final String BROKER_IDS_PATH = "/brokers/ids";
    private static final String TOPICS_PATH = "/brokers/topics";
    private static final Logger log = LoggerFactory.getLogger(ClusterView.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final ZkClient zk;
    private final CuratorCache brokers;
    private final CuratorCache controller;
    private final CuratorCache shuttingDown;
    private final CuratorCache topicConfigs;
    private final ExecutorService events;
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    /** The version (mzxid) of each node last warned about as unreadable: reads are frequent, the warning once a change. */
    private final Map<String, Long> warnedUnreadable = new ConcurrentHashMap<>();

    /**
     * A live broker's inter-broker address, its address on every listener it advertises (by listener name), and the
     * ZooKeeper transaction that created its registration (new on every restart).
     */
    public record Endpoint(int id, String host, int port, long registrationZxid, Map<String, InetSocketAddress> listeners) {
        /** This broker as clients of {@code listener} reach it; empty if it does not advertise that listener. */
        public Optional<Endpoint> on(ListenerName listener) {
            InetSocketAddress address = listeners.get(listener.value());
            return address == null ? Optional.empty()
                    : Optional.of(new Endpoint(id, address.getHostString(), address.getPort(), registrationZxid, listeners));
        }
    }

    private ClusterView(ZkClient zk) {
        this.zk = zk;
        this.brokers = CuratorCache.build(zk.curator(), "/brokers");
        this.controller = CuratorCache.build(zk.curator(), CONTROLLER_PATH);
        this.shuttingDown = CuratorCache.build(zk.curator(), SHUTTING_DOWN_PATH);
        this.topicConfigs = CuratorCache.build(zk.curator(), TopicStore.TOPIC_CONFIGS_PATH);
        this.events = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tributary-cluster-events");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts the watches and waits until the caches hold what ZooKeeper holds. */
    public static ClusterView start(ZkClient zk, long timeoutMs) throws InterruptedException {
        ClusterView view = new ClusterView(zk);
        List<CuratorCache> caches = List.of(view.brokers, view.controller, view.shuttingDown, view.topicConfigs);
        CountDownLatch loaded = new CountDownLatch(caches.size());
        for (CuratorCache cache : caches) {
            cache.listenable().addListener(CuratorCacheListener.builder()
                    .forAll((type, before, after) -> view.changed(after != null ? after : before))
                    .forInitialized(loaded::countDown)
                    .build());
            cache.start();
        }
        if (!loaded.await(timeoutMs, TimeUnit.MILLISECONDS)) {
            view.close();
            throw new TimeoutException("could not read the cluster state from ZooKeeper within " + timeoutMs + " ms");
        }
        return view;
    }

    /** {@code listener} gets the ZooKeeper path of every change, on the cluster event thread. */
    public void addListener(Consumer<String> listener) {
        listeners.add(listener);
    }

    /** Runs {@code task} on the cluster event thread, after the changes seen so far. */
    public void submit(Runnable task) {
        events.execute(guarded(task));
    }

    private void changed(ChildData node) {
        if (events.isShutdown()) {
            return; // Curator delivers late notifications after close(): they concern no one any more
        }
        String path = node.getPath();
        events.execute(guarded(() -> listeners.forEach(listener -> listener.accept(path))));
    }

    private static Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.error("handling a cluster change failed", e);
            }
        };
    }

    /** Live brokers by id. */
    public SortedMap<Integer, Endpoint> liveBrokers() {
        SortedMap<Integer, Endpoint> live = new TreeMap<>();
        brokers.stream().filter(node -> isChild(BROKER_IDS_PATH, node.getPath())).forEach(node -> {
            Endpoint endpoint = endpoint(node);
            if (endpoint != null) {
                live.put(endpoint.id(), endpoint);
            }
        });
        return live;
    }

    public Optional<Endpoint> broker(int id) {
        return brokers.get(BrokerRegistry.brokerPath(id)).map(this::endpoint);
    }

    /**
     * This process's own registration as broker {@code id}: its broker epoch (the zxid that created it), if the
     * registration as last seen belongs to this client's current ZooKeeper session. Empty before this process has
     * registered (an earlier process's node may still be there), and after its session expired until it has
     * registered again.
     */
    public OptionalLong ownBrokerEpoch(int id) {
        long session = zk.sessionId();
        return brokers.get(BrokerRegistry.brokerPath(id))
                .filter(node -> session != 0 && node.getStat().getEphemeralOwner() == session)
                .map(node -> OptionalLong.of(node.getStat().getCzxid()))
                .orElse(OptionalLong.empty());
    }

    /** Warns that {@code node} is ignored, once for each version of it (it is read on every look-up). */
    private void warnUnreadable(ChildData node, String what, Exception cause) {
        long version = node.getStat().getMzxid();
        Long warned = warnedUnreadable.put(node.getPath(), version);
        if (warned == null || warned != version) {
            log.warn("ignoring the unreadable {} {} until it changes: {}", what, node.getPath(), cause.toString());
        }
    }

    private Endpoint endpoint(ChildData node) {
        try {
            JsonNode json = MAPPER.readTree(node.getData());
            int id = Integer.parseInt(node.getPath().substring(BROKER_IDS_PATH.length() + 1));
            String host = json.path("host").asText();
            int port = json.path("port").asInt();
            Map<String, InetSocketAddress> listeners = new LinkedHashMap<>();
            json.path("endpoints").forEach(uri -> {
                String value = uri.asText();
                int scheme = value.indexOf("://");
                int colon = value.lastIndexOf(':');
                listeners.put(value.substring(0, scheme), InetSocketAddress.createUnresolved(value.substring(scheme + 3, colon),
                        Integer.parseInt(value.substring(colon + 1))));
            });
            if (listeners.isEmpty()) {
                listeners.put("PLAINTEXT", InetSocketAddress.createUnresolved(host, port));
            }
            return new Endpoint(id, host, port, node.getStat().getCzxid(), Map.copyOf(listeners));
        } catch (IOException | RuntimeException e) {
            warnUnreadable(node, "broker registration", e);
            return null;
        }
    }

    /** The active controller's broker id, or -1 while there is none. */
    public int controllerId() {
        return controller.get(CONTROLLER_PATH).map(node -> controllerIdOf(node.getData())).orElse(-1);
    }

    /** The broker id in a {@code /controller} node, or -1 if unreadable. */
    static int controllerIdOf(byte[] data) {
        try {
            return MAPPER.readTree(data).path("brokerid").asInt(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    /** Brokers in a controlled shutdown: they are to lose their leaderships and leave the ISRs. */
    public Set<Integer> shuttingDown() {
        Set<Integer> ids = new TreeSet<>();
        shuttingDown.stream().filter(node -> isChild(SHUTTING_DOWN_PATH, node.getPath())).forEach(node -> {
            try {
                ids.add(Integer.parseInt(node.getPath().substring(SHUTTING_DOWN_PATH.length() + 1)));
            } catch (NumberFormatException e) {
                warnUnreadable(node, "controlled shutdown", e);
            }
        });
        return ids;
    }

    /** The state of a partition as last seen, if the controller has elected it yet. */
    public Optional<PartitionState> partitionState(TopicPartition partition) {
        return brokers.get(PartitionState.path(partition)).map(node -> {
            try {
                return PartitionState.fromJson(node.getData(), node.getStat().getVersion(), node.getStat().getMzxid());
            } catch (IllegalStateException e) {
                warnUnreadable(node, "partition state", e);
                return null;
            }
        });
    }

    /** Every partition state, by partition. */
    public Map<TopicPartition, PartitionState> partitionStates() {
        Map<TopicPartition, PartitionState> states = new java.util.HashMap<>();
        brokers.stream().forEach(node -> {
            TopicPartition partition = PartitionState.partitionOf(node.getPath());
            if (partition != null) {
                partitionState(partition).ifPresent(state -> states.put(partition, state));
            }
        });
        return states;
    }

    /** Topic names, as last seen. */
    public Set<String> topics() {
        Set<String> names = new TreeSet<>();
        brokers.stream().filter(node -> isChild(TOPICS_PATH, node.getPath()))
                .forEach(node -> names.add(node.getPath().substring(TOPICS_PATH.length() + 1)));
        return names;
    }

    /** {@code topic}'s override of config {@code key}, as last seen; empty when it has none or it is unreadable. */
    public Optional<String> topicOverride(String topic, String key) {
        return topicConfigs.get(TopicStore.configPath(topic)).flatMap(node -> {
            try {
                return Optional.ofNullable(TopicStore.parseConfig(topic, node.getData()).get(key));
            } catch (RuntimeException e) {
                warnUnreadable(node, "topic config", e);
                return Optional.empty();
            }
        });
    }

    /** The replica list of each partition of {@code topic} (first replica preferred), as last seen. */
    public SortedMap<Integer, List<Integer>> replicas(String topic) {
        return assignment(topic).map(TopicAssignment::replicas).orElseGet(TreeMap::new);
    }

    /** {@code topic}'s assignment, reassignments included, as last seen; empty if it is gone or unreadable. */
    public Optional<TopicAssignment> assignment(String topic) {
        return brokers.get(TopicStore.topicPath(topic)).flatMap(node -> {
            try {
                return Optional.of(TopicStore.parseAssignment(topic, node.getData()));
            } catch (RuntimeException e) {
                warnUnreadable(node, "assignment", e);
                return Optional.empty();
            }
        });
    }

    private static boolean isChild(String parent, String path) {
        return path.startsWith(parent + "/") && path.indexOf('/', parent.length() + 1) < 0;
    }

    @Override
    public void close() {
        brokers.close();
        controller.close();
        shuttingDown.close();
        topicConfigs.close();
        events.shutdownNow();
    }
}
