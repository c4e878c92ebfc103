package io.tributary.broker.fetch;

import java.util.Optional;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts each Fetch in the light of its session (Kafka's FetchManager), by its session id and epoch:
 * <ul>
 *   <li>id 0, epoch -1 (and every Fetch before v7): a full fetch without a session;</li>
 *   <li>epoch 0: a full fetch that ends the session it names, if any, and asks for a new one;</li>
 *   <li>epoch -1 with an id: ends that session, then a full fetch without one;</li>
 *   <li>any other epoch: an incremental fetch of that session, which must expect exactly that epoch
 *       (FETCH_SESSION_ID_NOT_FOUND if the session is gone, INVALID_FETCH_SESSION_EPOCH if the epoch is not its,
 *       FETCH_SESSION_TOPIC_ID_ERROR if it switches between topic names and ids). A session left without partitions
 *       ends, and the fetch is answered as a full one without a session.</li>
 * </ul>
 * Thread-safe.
 */
public final class FetchSessions {
    private static final Logger log = LoggerFactory.getLogger(FetchSessions.class);
    private static final short FIRST_VERSION_BY_TOPIC_ID = 13;

    private final FetchSessionCache cache;

    public FetchSessions(FetchSessionCache cache) {
        this.cache = cache;
    }

    /** The context of {@code request}; {@code follower} if it comes from a broker allowed to replicate. */
    public FetchContext open(FetchRequestData request, short version, boolean follower) {
        FetchMetadata metadata = new FetchMetadata(request.sessionId(), request.sessionEpoch());
        boolean byTopicId = version >= FIRST_VERSION_BY_TOPIC_ID;
        if (metadata.isFull()) {
            if (metadata.sessionId() != FetchMetadata.INVALID_SESSION_ID) {
                cache.remove(metadata.sessionId());
            }
            return metadata.epoch() == FetchMetadata.FINAL_EPOCH
                    ? new FetchContext.Sessionless(request.topics())
                    : new FetchContext.Full(request.topics(), cache, follower, byTopicId);
        }
        synchronized (cache) {
            Optional<FetchSession> found = cache.get(metadata.sessionId());
            if (found.isEmpty()) {
                log.debug("fetch session {} not found", metadata.sessionId());
                return new FetchContext.SessionError(Errors.FETCH_SESSION_ID_NOT_FOUND);
            }
            FetchSession session = found.get();
            synchronized (session) {
                if (session.epoch() != metadata.epoch()) {
                    log.debug("{} expects epoch {}, not {}", session, session.epoch(), metadata.epoch());
                    return new FetchContext.SessionError(Errors.INVALID_FETCH_SESSION_EPOCH);
                }
                if (session.byTopicId() != byTopicId) {
                    return new FetchContext.SessionError(Errors.FETCH_SESSION_TOPIC_ID_ERROR);
                }
                session.update(request.topics(), request.forgottenTopicsData());
                if (session.size() == 0) {
                    cache.remove(session);
                    return new FetchContext.Sessionless(request.topics());
                }
                cache.touch(session);
                session.nextEpoch();
                return new FetchContext.Incremental(session, session.epoch());
            }
        }
    }

    /**
     * {@code response} was not sent (a throttled fetch gets no partitions): its partitions go out in the session's
     * next answer whatever it says, so that the fetcher learns what it missed.
     */
    public void unsent(FetchResponseData response) {
        if (response.sessionId() != FetchMetadata.INVALID_SESSION_ID) {
            cache.get(response.sessionId()).ifPresent(session -> session.untold(response.responses()));
        }
    }
}
