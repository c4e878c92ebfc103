package io.tributary.chaos.scenario;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import io.tributary.chaos.check.AckChecker;
import io.tributary.chaos.check.AckFindings;
import io.tributary.chaos.check.LogReader;
import io.tributary.chaos.check.ReplicaComparator;
import io.tributary.chaos.check.ReplicaFindings;
import io.tributary.chaos.check.SplitBrainDetector;
import io.tributary.chaos.check.StoredRecord;
import io.tributary.chaos.cluster.BrokerNode;
import io.tributary.chaos.cluster.ChaosCluster;
import io.tributary.chaos.cluster.ClusterSettings;
import io.tributary.chaos.fault.FaultInjector;
import io.tributary.chaos.fault.FaultKind;
import io.tributary.chaos.fault.FaultTimings;
import io.tributary.chaos.fault.InjectedFault;
import io.tributary.chaos.load.Ack;
import io.tributary.chaos.load.AckLog;
import io.tributary.chaos.load.GroupReader;
import io.tributary.chaos.load.JavaProducerLoad;
import io.tributary.chaos.load.KafkajsLoad;
import io.tributary.chaos.load.RecoveryClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One chaos run: a fresh cluster, the loads (kafka-clients and kafkajs producers, a consumer
 * group), the faults one after another — each on a healthy cluster, each followed by a measure of
 * how soon every partition is served again — then healing, a clean stop and the checks.
 */
public final class ChaosRun {
    private static final Logger log = LoggerFactory.getLogger(ChaosRun.class);
    private static final int ACKS_BETWEEN_FAULTS = 300;
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(120);
    /** How long after a fault the recovery is still measured (beyond the bound, to report it). */
    private static final Duration RECOVERY_WINDOW = Duration.ofSeconds(60);

    private final Path dir;
    private final RunPlan plan;
    private final ClusterSettings settings;

    /** @param dir where the cluster's data and logs go */
    public ChaosRun(Path dir, RunPlan plan) {
        this.dir = dir;
        this.plan = plan;
        this.settings = plan.settings();
    }

    /** The faults in the order given; {@link #mixed} makes a random order. */
    public RunResult run(List<FaultKind> faults) throws Exception {
        long started = System.nanoTime();
        AckLog ackLog = new AckLog(settings.partitions());
        try (ChaosCluster cluster = ChaosCluster.start(dir, settings)) {
            log.info("cluster up after {} ms", Duration.ofNanos(System.nanoTime() - started).toMillis());
            String bootstrap = cluster.bootstrapServers();
            GroupReader group = new GroupReader(bootstrap, settings.topic(), "chaos-group");
            JavaProducerLoad java = new JavaProducerLoad(bootstrap, settings.topic(), settings.partitions(),
                    plan.javaRecordsPerSecond(), ackLog);
            KafkajsLoad kafkajs = new KafkajsLoad(plan.kafkajsClients(), bootstrap, settings.topic(), settings.partitions(), ackLog,
                    dir.resolve("kafkajs.log"));
            group.start();
            java.start();
            kafkajs.start();
            List<FaultOutcome> outcomes;
            try {
                outcomes = inject(cluster, ackLog, faults, started + plan.faultBudget().toNanos());
            } finally {
                kafkajs.close();
                java.close();
            }
            log.info("faults done, loads stopped; checking");
            RunResult result = check(cluster, ackLog, group, outcomes, started);
            log.info("run finished:\n{}", result.summary());
            return result;
        }
    }

    /** Each fault on a healthy cluster, and how soon every partition is served after it. */
    private List<FaultOutcome> inject(ChaosCluster cluster, AckLog ackLog, List<FaultKind> faults, long budgetEnd)
            throws InterruptedException {
        FaultInjector injector = new FaultInjector(cluster, FaultTimings.of(settings, plan.zookeeperOutage()), ackLog,
                new Random(plan.seed()));
        List<FaultOutcome> outcomes = new ArrayList<>();
        requireAcks(ackLog, "before the first fault");
        for (int i = 0; i < faults.size(); i++) {
            if (System.nanoTime() > budgetEnd) {
                log.warn("time budget of {} spent: stopping after {} of {} faults", plan.faultBudget(), i, faults.size());
                break;
            }
            FaultKind kind = faults.get(i);
            log.info("fault {} of {}: {}", i + 1, faults.size(), kind);
            InjectedFault fault = injector.inject(kind);
            try (RecoveryClock recovery = fault.recovery()) {
                List<Optional<Duration>> served = recovery.await(RECOVERY_WINDOW);
                cluster.awaitHealthy(STEP_TIMEOUT);
                requireAcks(ackLog, "after " + kind);
                outcomes.add(new FaultOutcome(fault, served, recovery.longestGaps()));
            }
        }
        return outcomes;
    }

    /** On the healed cluster: the log against the acknowledgements and the group; then a clean stop and the files. */
    private RunResult check(ChaosCluster cluster, AckLog ackLog, GroupReader group, List<FaultOutcome> outcomes, long started)
            throws InterruptedException {
        cluster.awaitHealthy(STEP_TIMEOUT);
        Map<Integer, List<StoredRecord>> stored = LogReader.readAll(cluster.bootstrapServers(), settings.topic(),
                settings.partitions(), STEP_TIMEOUT);
        List<Ack> acks = ackLog.acks();
        AckFindings ackFindings = AckChecker.check(acks, stored, ackLog::wasSent);
        Set<String> stillStored = stored.values().stream().flatMap(List::stream).map(StoredRecord::payload).collect(Collectors.toSet());
        Set<String> toConsume = acks.stream().map(Ack::payload).filter(stillStored::contains).collect(Collectors.toSet());
        int groupMissed = group.awaitConsumed(toConsume, STEP_TIMEOUT).size();
        group.close();
        log.info("log read and group checked; stopping the brokers");
        cluster.stopCleanly();
        ReplicaFindings replicas = ReplicaComparator.compare(cluster.brokers().stream().map(BrokerNode::logDir).toList(),
                settings.topic(), settings.partitions());
        Map<Integer, Path> brokerLogs = new LinkedHashMap<>();
        cluster.brokers().forEach(b -> brokerLogs.put(b.id(), b.jvm().output()));
        SplitBrainDetector.Findings leadership = SplitBrainDetector.check(brokerLogs, settings.topic());
        if (leadership.claims() < settings.partitions()) {
            throw new IllegalStateException("the broker logs show only " + leadership.claims() + " leadership claims: has the "
                    + "'leader at epoch' line changed? The split-brain check depends on it.");
        }
        return new RunResult(settings, plan.seed(), outcomes, ackFindings, replicas, leadership, ackLog.errors(), groupMissed,
                Duration.ofNanos(System.nanoTime() - started));
    }

    /** {@code count} faults drawn from {@code kinds}, each kind as often as the others, in a random order. */
    public static List<FaultKind> mixed(List<FaultKind> kinds, int count, long seed) {
        List<FaultKind> faults = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            faults.add(kinds.get(i % kinds.size()));
        }
        Collections.shuffle(faults, new Random(seed));
        return faults;
    }

    private static void requireAcks(AckLog ackLog, String when) throws InterruptedException {
        if (!ackLog.awaitMoreAcks(ACKS_BETWEEN_FAULTS, STEP_TIMEOUT)) {
            throw new IllegalStateException("fewer than " + ACKS_BETWEEN_FAULTS + " acknowledgements within " + STEP_TIMEOUT + " " + when);
        }
    }
}
