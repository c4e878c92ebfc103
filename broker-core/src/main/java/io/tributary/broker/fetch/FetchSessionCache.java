package io.tributary.broker.fetch;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import io.tributary.broker.metrics.FetchSessionGauges;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetch sessions of this broker, at most {@code max.incremental.fetch.session.cache.slots} of them. When the cache
 * is full, a new session takes the place of another only by Kafka's rules, in this order:
 * <ol>
 *   <li>the session unused longest goes if it was last used more than {@code evictionMs} ago (stale);</li>
 *   <li>else the least worth of the sessions the newcomer may evict goes if the newcomer is worth at least as much:
 *       a follower's (privileged) session is worth more than any consumer's, and among equals the one with more
 *       partitions is worth more. A consumer may evict only sessions created more than {@code evictionMs} ago; a
 *       follower may also evict any consumer's session, however young;</li>
 *   <li>else the newcomer gets no session (its fetches stay full fetches, which always work).</li>
 * </ol>
 * Whether a session is old enough is judged when it is used. Kafka splits the cache into 8 shards of a share of
 * the slots each; this is one cache of all of them. Thread-safe (the cache's lock is taken before a session's).
 */
public final class FetchSessionCache implements FetchSessionGauges {
    private static final Logger log = LoggerFactory.getLogger(FetchSessionCache.class);

    /** Kafka's minimum age of an evictable session (not configurable there either). */
    public static final long EVICTION_MS = 120_000;

    private final int maxSessions;
    private final long evictionMs;
    private final Time time;
    private final Map<Integer, FetchSession> sessions = new HashMap<>();
    private final TreeMap<LastUse, FetchSession> byLastUse = new TreeMap<>();
    private final TreeMap<Worth, FetchSession> evictableByAll = new TreeMap<>();
    private final TreeMap<Worth, FetchSession> evictableByPrivileged = new TreeMap<>();
    private long cachedPartitions;
    private long evictions;

    /** When a session was last used; the oldest sorts first. */
    record LastUse(long ms, int id) implements Comparable<LastUse> {
        @Override
        public int compareTo(LastUse other) {
            int byTime = Long.compare(ms, other.ms);
            return byTime != 0 ? byTime : Integer.compare(id, other.id);
        }
    }

    /** What a session is worth keeping; the least worth sorts first. A newcomer's id is 0, below any session's. */
    record Worth(boolean privileged, int size, int id) implements Comparable<Worth> {
        @Override
        public int compareTo(Worth other) {
            if (privileged != other.privileged) {
                return privileged ? 1 : -1;
            }
            int bySize = Integer.compare(size, other.size);
            return bySize != 0 ? bySize : Integer.compare(id, other.id);
        }
    }

    public FetchSessionCache(int maxSessions, long evictionMs, Time time) {
        this.maxSessions = maxSessions;
        this.evictionMs = evictionMs;
        this.time = time;
    }

    synchronized Optional<FetchSession> get(int id) {
        return Optional.ofNullable(sessions.get(id));
    }

    /**
     * Opens a session of {@code partitions} (made only if it gets a place) if there is a slot or one can be freed.
     *
     * @param size how many partitions {@code partitions} will make
     * @return the new session, or nothing if it got no place
     */
    synchronized Optional<FetchSession> maybeCreate(boolean privileged, boolean byTopicId, int size,
                                                    Supplier<Map<SessionPartition, CachedPartition>> partitions) {
        long now = time.milliseconds();
        if (sessions.size() >= maxSessions && !maybeEvict(new Worth(privileged, size, 0), now)) {
            log.debug("no fetch session for a {} of {} partitions: all {} slots are taken", privileged ? "follower" : "consumer",
                    size, maxSessions);
            return Optional.empty();
        }
        FetchSession session = new FetchSession(newSessionId(), privileged, byTopicId, now, partitions.get());
        sessions.put(session.id(), session);
        touch(session, now);
        return Optional.of(session);
    }

    private boolean maybeEvict(Worth newcomer, long now) {
        Map.Entry<LastUse, FetchSession> unusedLongest = byLastUse.firstEntry();
        if (unusedLongest == null) {
            return false;
        }
        if (now - unusedLongest.getKey().ms() > evictionMs) {
            evict(unusedLongest.getValue(), "unused for " + (now - unusedLongest.getKey().ms()) + " ms");
            return true;
        }
        Map.Entry<Worth, FetchSession> leastWorth = (newcomer.privileged() ? evictableByPrivileged : evictableByAll).firstEntry();
        if (leastWorth == null || newcomer.compareTo(leastWorth.getKey()) < 0) {
            return false;
        }
        evict(leastWorth.getValue(), "for a " + (newcomer.privileged() ? "follower's" : "consumer's") + " session of "
                + newcomer.size() + " partitions");
        return true;
    }

    private void evict(FetchSession session, String why) {
        log.debug("evicted {} ({} partitions): {}", session, session.size(), why);
        remove(session);
        evictions++;
    }

    synchronized void remove(int id) {
        FetchSession session = sessions.get(id);
        if (session != null) {
            remove(session);
        }
    }

    synchronized void remove(FetchSession session) {
        if (sessions.remove(session.id(), session)) {
            byLastUse.remove(session.lastUse);
            dropWorth(session);
        }
    }

    /** Records a use of {@code session} now: its last use, and its worth at its current size. */
    synchronized void touch(FetchSession session) {
        touch(session, time.milliseconds());
    }

    private void touch(FetchSession session, long now) {
        if (!sessions.containsKey(session.id())) {
            return; // evicted meanwhile
        }
        if (session.lastUse != null) {
            byLastUse.remove(session.lastUse);
        }
        session.lastUse = new LastUse(now, session.id());
        byLastUse.put(session.lastUse, session);
        dropWorth(session);
        session.worth = new Worth(session.privileged(), session.size(), session.id());
        cachedPartitions += session.worth.size();
        boolean old = now - session.createdMs() > evictionMs;
        if (old || !session.privileged()) {
            evictableByPrivileged.put(session.worth, session);
        }
        if (old) {
            evictableByAll.put(session.worth, session);
        }
    }

    private void dropWorth(FetchSession session) {
        if (session.worth != null) {
            evictableByAll.remove(session.worth);
            evictableByPrivileged.remove(session.worth);
            cachedPartitions -= session.worth.size();
            session.worth = null;
        }
    }

    private int newSessionId() {
        int id;
        do {
            id = ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE);
        } while (sessions.containsKey(id));
        return id;
    }

    @Override
    public synchronized int sessions() {
        return sessions.size();
    }

    @Override
    public synchronized long cachedPartitions() {
        return cachedPartitions;
    }

    @Override
    public synchronized long evictions() {
        return evictions;
    }
}
