package io.tributary.chaos.fault;

/** The faults of issue 17, each of which the suite injects alone and mixed. */
public enum FaultKind {
    LEADER_KILL_QUICK_RESTART("SIGKILL of a leader, restarted inside the session timeout"),
    LEADER_KILL_LATE_RESTART("SIGKILL of a leader, restarted after the session timeout"),
    FOLLOWER_KILL_QUICK_RESTART("SIGKILL of a follower, restarted inside the session timeout"),
    FOLLOWER_KILL_LATE_RESTART("SIGKILL of a follower, restarted after the session timeout"),
    CONTROLLER_KILL_QUICK_RESTART("SIGKILL of the controller, restarted inside the session timeout"),
    CONTROLLER_KILL_LATE_RESTART("SIGKILL of the controller, restarted after the session timeout"),
    LEADER_PAUSE("SIGSTOP of a leader past its session, then SIGCONT (a zombie)"),
    ZOOKEEPER_RESTART("ZooKeeper SIGKILLed and started again on its data"),
    ZOOKEEPER_UNREACHABLE("ZooKeeper unreachable (SIGSTOP) for 30 s"),
    LEADER_CUT_FROM_BROKERS("a leader cut off from the other brokers, not from ZooKeeper or clients"),
    LEADER_CUT_FROM_ZOOKEEPER("a leader cut off from ZooKeeper only"),
    LEADER_DISK_FULL("a leader's disk full: its files stop growing, one in the middle of a batch");

    private final String description;

    FaultKind(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
