package io.tributary.chaos;

import java.util.Arrays;
import java.util.List;
import io.tributary.chaos.fault.FaultKind;
import io.tributary.chaos.scenario.ChaosRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * CI's bounded soak: {@value #FAULTS} faults of every kind in a seeded random order on one
 * cluster, under the same load and checks as {@link FaultKindsIT}; with its 11, CI injects 21
 * faults. ZooKeeper's 30 s outage is left to {@link FaultKindsIT} and the soak (chaos/run), to
 * keep this run short.
 */
@Timeout(600)
class MixedFaultsIT {
    private static final int FAULTS = 10;
    private static final long SEED = 17;

    @Test
    void tenMixedFaultsLoseAndDuplicateNothingAcknowledged() throws Exception {
        List<FaultKind> kinds = Arrays.stream(FaultKind.values()).filter(k -> k != FaultKind.ZOOKEEPER_UNREACHABLE).toList();
        ChaosScenarios.assertSurvived(ChaosScenarios.run("mixed", ChaosRun.mixed(kinds, FAULTS, SEED), SEED));
    }
}
