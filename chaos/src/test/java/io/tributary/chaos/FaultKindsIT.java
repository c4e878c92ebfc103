package io.tributary.chaos;

import java.util.Collections;
import java.util.Locale;
import io.tributary.chaos.fault.FaultKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One test per fault kind of issue 17: a fresh 3-broker cluster on an external ZooKeeper, each
 * process in its own network namespace, a topic with 3 partitions, RF 3 and min.insync.replicas=2,
 * loaded by an idempotent acks=all kafka-clients producer, an idempotent kafkajs producer and a
 * consumer group; the fault ({@value #REPEATS} time); then every check of {@link ChaosScenarios#assertSurvived}.
 */
@Timeout(300)
class FaultKindsIT {
    private static final int REPEATS = 1;

    private static void survives(FaultKind kind) throws Exception {
        ChaosScenarios.assertSurvived(ChaosScenarios.run(kind.name().toLowerCase(Locale.ROOT), Collections.nCopies(REPEATS, kind), kind.ordinal()));
    }

    @Test
    void leaderKilledAndRestartedInsideTheSession() throws Exception {
        survives(FaultKind.LEADER_KILL_QUICK_RESTART);
    }

    @Test
    void leaderKilledAndRestartedAfterTheSession() throws Exception {
        survives(FaultKind.LEADER_KILL_LATE_RESTART);
    }

    @Test
    void followerKilledAndRestartedInsideTheSession() throws Exception {
        survives(FaultKind.FOLLOWER_KILL_QUICK_RESTART);
    }

    @Test
    void followerKilledAndRestartedAfterTheSession() throws Exception {
        survives(FaultKind.FOLLOWER_KILL_LATE_RESTART);
    }

    @Test
    void controllerKilledAndRestartedInsideTheSession() throws Exception {
        survives(FaultKind.CONTROLLER_KILL_QUICK_RESTART);
    }

    @Test
    void controllerKilledAndRestartedAfterTheSession() throws Exception {
        survives(FaultKind.CONTROLLER_KILL_LATE_RESTART);
    }

    @Test
    void leaderPausedPastItsSessionComesBackAsAZombie() throws Exception {
        survives(FaultKind.LEADER_PAUSE);
    }

    @Test
    void zooKeeperRestarted() throws Exception {
        survives(FaultKind.ZOOKEEPER_RESTART);
    }

    @Test
    void zooKeeperUnreachableFor30Seconds() throws Exception {
        survives(FaultKind.ZOOKEEPER_UNREACHABLE);
    }

    @Test
    void leaderCutOffFromTheOtherBrokers() throws Exception {
        survives(FaultKind.LEADER_CUT_FROM_BROKERS);
    }

    @Test
    void leaderCutOffFromZooKeeper() throws Exception {
        survives(FaultKind.LEADER_CUT_FROM_ZOOKEEPER);
    }

    @Test
    void leaderDiskFull() throws Exception {
        survives(FaultKind.LEADER_DISK_FULL);
    }
}
