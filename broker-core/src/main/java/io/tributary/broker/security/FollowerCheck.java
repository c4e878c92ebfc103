package io.tributary.broker.security;

import io.tributary.broker.network.Session;

/**
 * Whether a Fetch that names a replica id may count as that follower's (joining the ISR, moving the high watermark).
 * Until ACLs exist this is the broker's only defence against a client claiming to be a replica. Thread-safe.
 */
@FunctionalInterface
public interface FollowerCheck {
    /** Every fetch with a valid replica id counts (no check: only for tests of the replication itself). */
    FollowerCheck NONE = (replicaId, session) -> true;

    boolean mayFollow(int replicaId, Session session);
}
