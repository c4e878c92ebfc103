package io.tributary.chaos.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import io.tributary.chaos.cluster.BrokerNode;
import io.tributary.chaos.cluster.ChaosCluster;
import io.tributary.chaos.load.AckLog;
import io.tributary.chaos.load.RecoveryClock;
import io.tributary.chaos.net.NetworkLab;
import io.tributary.testkit.FileSizeLimit;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Injects one fault at a time into a healthy cluster and heals it: picks the target (the leader of
 * a random partition, one of its followers, or the controller), breaks it, waits the fault's
 * duration and undoes it. Returns once the healing is done (a restarted broker listens again), with
 * a {@link RecoveryClock} started the moment the healing began: the caller reads from it how soon
 * each partition was served again, which may well be before this returns.
 */
public final class FaultInjector {
    private static final Logger log = LoggerFactory.getLogger(FaultInjector.class);
    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(30);
    /** With one broker of three down, every partition must be served again this soon after its session expired. */
    private static final Duration SERVICE_AFTER_SESSION = Duration.ofSeconds(10);
    /** "Served" means every partition acknowledged a write this recently (the loads write to each several times a second). */
    private static final Duration SERVED_RECENTLY = Duration.ofSeconds(2);

    private final ChaosCluster cluster;
    private final FaultTimings timings;
    private final AckLog acks;
    private final Random random;

    /** @param acks what the loads see, to tell whether partitions are served while a broker is down */
    public FaultInjector(ChaosCluster cluster, FaultTimings timings, AckLog acks, Random random) {
        this.cluster = cluster;
        this.timings = timings;
        this.acks = acks;
        this.random = random;
    }

    public InjectedFault inject(FaultKind kind) throws InterruptedException {
        return switch (kind) {
            case LEADER_KILL_QUICK_RESTART -> killAndRestart(kind, leader(), timings.quickRestart(), false);
            case LEADER_KILL_LATE_RESTART -> killAndRestart(kind, leader(), timings.lateRestart(), true);
            case FOLLOWER_KILL_QUICK_RESTART -> killAndRestart(kind, follower(), timings.quickRestart(), false);
            case FOLLOWER_KILL_LATE_RESTART -> killAndRestart(kind, follower(), timings.lateRestart(), true);
            case CONTROLLER_KILL_QUICK_RESTART -> killAndRestart(kind, controller(), timings.quickRestart(), false);
            case CONTROLLER_KILL_LATE_RESTART -> killAndRestart(kind, controller(), timings.lateRestart(), true);
            case LEADER_PAUSE -> pause(kind, leader());
            case ZOOKEEPER_RESTART -> zookeeperRestart(kind);
            case ZOOKEEPER_UNREACHABLE -> zookeeperPause(kind);
            case LEADER_CUT_FROM_BROKERS -> cutFromBrokers(kind, leader());
            case LEADER_CUT_FROM_ZOOKEEPER -> cutFromZooKeeper(kind, leader());
            case LEADER_DISK_FULL -> diskFull(kind, leader());
        };
    }

    /** A broker and why it was picked. */
    private record Target(BrokerNode broker, String role) {
        String describe() {
            return "broker " + broker.id() + ", " + role;
        }
    }

    /**
     * @param checkServiceWhileDown the broker stays down at least {@code down}, and then until every partition is
     *                              being served without it, at most until 10 s after its session expired
     */
    private InjectedFault killAndRestart(FaultKind kind, Target target, Duration down, boolean checkServiceWhileDown)
            throws InterruptedException {
        long start = System.nanoTime();
        target.broker().jvm().kill();
        InjectedFault.ServiceWhileDown whileDown = InjectedFault.ServiceWhileDown.NOT_CHECKED;
        if (checkServiceWhileDown) {
            long sessionExpired = start + cluster.settings().sessionTimeout().toNanos();
            whileDown = acks.awaitEveryPartitionServedRecently(SERVED_RECENTLY, start + down.toNanos(),
                    sessionExpired + SERVICE_AFTER_SESSION.toNanos())
                    ? InjectedFault.ServiceWhileDown.SERVED : InjectedFault.ServiceWhileDown.NOT_SERVED;
        } else {
            Thread.sleep(down.toMillis());
        }
        RecoveryClock recovery = acks.startRecoveryClock();
        target.broker().start();
        // Whether a "quick" restart really was inside the session depends on how fast the JVM came up: say so.
        String restarted = String.format("%s, listening again %.1f s after the kill", target.describe(),
                (System.nanoTime() - start) / 1e9);
        return done(kind, restarted, start, recovery, whileDown);
    }

    private InjectedFault pause(FaultKind kind, Target target) throws InterruptedException {
        long start = System.nanoTime();
        target.broker().jvm().pause();
        Thread.sleep(timings.pause().toMillis());
        RecoveryClock recovery = acks.startRecoveryClock();
        target.broker().jvm().resume();
        return done(kind, target.describe(), start, recovery);
    }

    private InjectedFault zookeeperRestart(FaultKind kind) throws InterruptedException {
        long start = System.nanoTime();
        cluster.zookeeper().jvm().kill();
        Thread.sleep(timings.zookeeperRestart().toMillis());
        RecoveryClock recovery = acks.startRecoveryClock();
        cluster.zookeeper().start();
        return done(kind, "ZooKeeper", start, recovery);
    }

    private InjectedFault zookeeperPause(FaultKind kind) throws InterruptedException {
        long start = System.nanoTime();
        cluster.zookeeper().jvm().pause();
        Thread.sleep(timings.zookeeperOutage().toMillis());
        RecoveryClock recovery = acks.startRecoveryClock();
        cluster.zookeeper().jvm().resume();
        return done(kind, "ZooKeeper", start, recovery);
    }

    private InjectedFault cutFromBrokers(FaultKind kind, Target target) throws InterruptedException {
        NetworkLab network = cluster.network();
        long start = System.nanoTime();
        for (BrokerNode other : cluster.brokers()) {
            if (other != target.broker()) {
                network.cut(target.broker().host(), other.host());
            }
        }
        Thread.sleep(timings.partition().toMillis());
        RecoveryClock recovery = acks.startRecoveryClock();
        network.healAll();
        return done(kind, target.describe(), start, recovery);
    }

    private InjectedFault cutFromZooKeeper(FaultKind kind, Target target) throws InterruptedException {
        NetworkLab network = cluster.network();
        long start = System.nanoTime();
        network.cut(target.broker().host(), cluster.zookeeper().host());
        Thread.sleep(timings.partition().toMillis());
        RecoveryClock recovery = acks.startRecoveryClock();
        network.healAll();
        return done(kind, target.describe(), start, recovery);
    }

    /**
     * The leader's disk fills up for as long as a partition lasts: no file of its JVM may grow past the size of the
     * smallest active segment of the topic's partitions there plus an odd 4,099 bytes ({@link FileSizeLimit}), so that
     * segment stops inside a batch a few writes later and every larger file at once; then the limit is lifted.
     */
    private InjectedFault diskFull(FaultKind kind, Target target) throws InterruptedException {
        long pid = target.broker().jvm().pid();
        long limit = smallestActiveSegmentBytes(target.broker()) + 4_099;
        long start = System.nanoTime();
        FileSizeLimit.set(pid, limit);
        Thread.sleep(timings.partition().toMillis());
        RecoveryClock recovery = acks.startRecoveryClock();
        FileSizeLimit.lift(pid);
        return done(kind, target.describe() + ", files limited to " + limit + " bytes", start, recovery);
    }

    private long smallestActiveSegmentBytes(BrokerNode broker) {
        String prefix = cluster.settings().topic() + "-";
        try (Stream<Path> partitions = Files.list(broker.logDir())) {
            long smallest = Long.MAX_VALUE;
            for (Path partition : partitions.filter(dir -> dir.getFileName().toString().startsWith(prefix)).toList()) {
                try (Stream<Path> files = Files.list(partition)) {
                    Optional<Path> active = files.filter(file -> file.getFileName().toString().endsWith(".log"))
                            .max(Comparator.comparing(file -> file.getFileName().toString()));
                    if (active.isPresent()) {
                        smallest = Math.min(smallest, Files.size(active.get()));
                    }
                }
            }
            if (smallest == Long.MAX_VALUE) {
                throw new IllegalStateException("no segment of " + cluster.settings().topic() + " in " + broker.logDir());
            }
            return smallest;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InjectedFault done(FaultKind kind, String target, long start, RecoveryClock recovery) {
        return done(kind, target, start, recovery, InjectedFault.ServiceWhileDown.NOT_CHECKED);
    }

    private static InjectedFault done(FaultKind kind, String target, long start, RecoveryClock recovery,
                                      InjectedFault.ServiceWhileDown whileDown) {
        InjectedFault fault = new InjectedFault(kind, target, start, recovery, whileDown);
        log.info("{} ({}): {} ms", kind, target, Duration.ofNanos(recovery.startNanos() - start).toMillis());
        return fault;
    }

    private Target leader() throws InterruptedException {
        TopicPartitionInfo partition = randomPartition();
        return new Target(cluster.broker(partition.leader().id()), "leader of " + cluster.settings().topic() + "-" + partition.partition());
    }

    private Target follower() throws InterruptedException {
        TopicPartitionInfo partition = randomPartition();
        List<Node> followers = partition.replicas().stream().filter(r -> r.id() != partition.leader().id()).toList();
        Node follower = followers.get(random.nextInt(followers.size()));
        return new Target(cluster.broker(follower.id()), "follower of " + cluster.settings().topic() + "-" + partition.partition());
    }

    private Target controller() throws InterruptedException {
        long deadline = System.nanoTime() + LOOKUP_TIMEOUT.toNanos();
        int controller;
        while ((controller = cluster.controller()) < 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no controller known within " + LOOKUP_TIMEOUT);
            }
            Thread.sleep(200);
        }
        return new Target(cluster.broker(controller), "the controller");
    }

    private TopicPartitionInfo randomPartition() throws InterruptedException {
        int p = random.nextInt(cluster.settings().partitions());
        long deadline = System.nanoTime() + LOOKUP_TIMEOUT.toNanos();
        while (true) {
            var partitions = cluster.partitions();
            if (partitions.isPresent() && partitions.get().get(p).leader() != null) {
                return partitions.get().get(p);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("partition " + p + " has no leader within " + LOOKUP_TIMEOUT);
            }
            Thread.sleep(200);
        }
    }
}
