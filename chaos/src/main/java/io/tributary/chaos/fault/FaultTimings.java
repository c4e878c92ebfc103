package io.tributary.chaos.fault;

import java.time.Duration;
import io.tributary.chaos.cluster.ClusterSettings;

/**
 * How long each fault lasts, from the cluster's session timeout: "inside" the session is a
 * restart after 1 s (the new process registers while the old session still exists), "after" and
 * a pause are the session plus 3 s, a partition outlasts both the session and the replica lag.
 */
public record FaultTimings(Duration quickRestart, Duration lateRestart, Duration pause, Duration zookeeperRestart,
                           Duration zookeeperOutage, Duration partition) {

    public static FaultTimings of(ClusterSettings settings, Duration zookeeperOutage) {
        Duration session = settings.sessionTimeout();
        Duration pastSession = session.plusSeconds(3);
        Duration partition = Duration.ofMillis(Math.max(settings.sessionTimeoutMs(), settings.replicaLagTimeMaxMs())).plusSeconds(5);
        return new FaultTimings(Duration.ofSeconds(1), pastSession, pastSession, Duration.ofSeconds(2), zookeeperOutage, partition);
    }
}
