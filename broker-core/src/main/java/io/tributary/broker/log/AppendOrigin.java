package io.tributary.broker.log;

/** Who appends, as in Kafka: what is validated depends on it. */
public enum AppendOrigin {
    /** A producer: control batches are refused, sequences are checked, the leader assigns offsets. */
    CLIENT,
    /** The broker's own coordinators (markers, transactional offset commits): control batches allowed, no sequences. */
    COORDINATOR,
    /** A follower copying its leader: offsets are the leader's and must increase. */
    REPLICATION
}
