package io.tributary.broker.security;

import io.tributary.broker.network.Session;

/**
 * Whether a Fetch that names a replica id may count as that follower's (joining the ISR, moving the high watermark).
 * It applies whether or not an authorizer is configured; with one, a follower fetch also needs CLUSTER_ACTION.
 * Thread-safe.
 */
@FunctionalInterface
public interface FollowerCheck {
    /** Every fetch with a valid replica id counts (no check: only for tests of the replication itself). */
    FollowerCheck NONE = (replicaId, session) -> true;

    boolean mayFollow(int replicaId, Session session);
}
