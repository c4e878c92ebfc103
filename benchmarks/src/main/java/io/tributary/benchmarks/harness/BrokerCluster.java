package io.tributary.benchmarks.harness;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * One side's replicated cluster: a metadata node and several brokers, each in its own child JVM.
 * To the workloads it is one {@link Broker}: clients bootstrap from all brokers, and its CPU is
 * the sum over the brokers. The metadata node's CPU is not counted, on either side: Tributary's
 * ZooKeeper and Kafka's KRaft controller both live outside the brokers.
 */
public final class BrokerCluster implements Broker, AutoCloseable {
    private static final long POLL_MILLIS = 100;

    private final String name;
    private final BrokerProcess metadataNode;
    private final List<BrokerProcess> brokers;

    private BrokerCluster(String name, BrokerProcess metadataNode, List<BrokerProcess> brokers) {
        this.name = name;
        this.metadataNode = metadataNode;
        this.brokers = List.copyOf(brokers);
    }

    /**
     * Starts every node at once (the brokers retry until their metadata node answers); call
     * {@link #awaitReady} before using the cluster.
     */
    public static BrokerCluster start(String name, ClusterLaunch launch, String brokerHeap, String metadataHeap,
                                      ChildProcesses children, ProcStat procStat) throws IOException {
        NodeLaunch metadata = launch.metadataNode();
        BrokerProcess metadataNode = BrokerProcess.start(name + " metadata", metadata.launch(), metadataHeap,
                metadata.workDir(), children, procStat);
        List<BrokerProcess> brokers = new ArrayList<>();
        try {
            for (int i = 0; i < launch.brokers().size(); i++) {
                NodeLaunch broker = launch.brokers().get(i);
                brokers.add(BrokerProcess.start(name + " broker " + i, broker.launch(), brokerHeap, broker.workDir(),
                        children, procStat));
            }
        } catch (IOException | RuntimeException e) {
            new BrokerCluster(name, metadataNode, brokers).close();
            throw e;
        }
        return new BrokerCluster(name, metadataNode, brokers);
    }

    /** Blocks until every broker answers and the cluster's metadata lists all of them. */
    public void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (BrokerProcess broker : brokers) {
            broker.awaitReady(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            int registered = 0;
            while (registered < brokers.size()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(name + ": only " + registered + " of " + brokers.size()
                            + " brokers registered within " + timeout);
                }
                try {
                    registered = admin.describeCluster().nodes().get(2, TimeUnit.SECONDS).size();
                } catch (ExecutionException | TimeoutException notYet) {
                    registered = 0;
                }
                if (registered < brokers.size()) {
                    Thread.sleep(POLL_MILLIS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + name, e);
        }
    }

    public String name() {
        return name;
    }

    /** The brokers' process ids, for the progress log. */
    public List<Long> pids() {
        return brokers.stream().map(BrokerProcess::pid).toList();
    }

    @Override
    public String bootstrapServers() {
        return brokers.stream().map(BrokerProcess::bootstrapServers).collect(Collectors.joining(","));
    }

    /** The sum over the brokers; the metadata node is left out (see the class comment). */
    @Override
    public double cpuSeconds() {
        return brokers.stream().mapToDouble(BrokerProcess::cpuSeconds).sum();
    }

    /**
     * Stops the brokers together (each SIGTERM, then SIGKILL after the grace period), then the
     * metadata node, which the brokers may still need while they shut down.
     */
    @Override
    public void close() {
        List<Thread> stopping = new ArrayList<>();
        for (BrokerProcess broker : brokers) {
            Thread thread = new Thread(broker::close, "stop-" + broker.name().replace(' ', '-'));
            thread.start();
            stopping.add(thread);
        }
        try {
            for (Thread thread : stopping) {
                thread.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        metadataNode.close();
    }
}
