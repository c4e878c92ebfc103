package io.tributary.broker.fetch;

import java.util.ArrayList;
import java.util.Optional;
import java.util.List;
import org.apache.kafka.common.message.FetchRequestData.FetchTopic;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchMetadata;

/**
 * One Fetch in the light of its session: the partitions to read, and the answer to send for what was read. The
 * reader answers each topic of {@link #topics()} with its name and id as asked, so that answers are matched to the
 * session's partitions. A context is used by one fetch (which may read more than once while it waits) and
 * answered once.
 */
public sealed interface FetchContext {
    /** The partitions to read, by topic, in the order to read them. */
    List<FetchTopic> topics();

    /** The response for {@code read}, the last reading of {@link #topics()}, which it may change and return. */
    FetchResponseData respond(FetchResponseData read);

    /** A full fetch that asked for no session, or ended one: every partition asked is answered, no session id. */
    record Sessionless(List<FetchTopic> topics) implements FetchContext {
        @Override
        public FetchResponseData respond(FetchResponseData read) {
            return read.setSessionId(FetchMetadata.INVALID_SESSION_ID);
        }
    }

    /** A fetch naming a session that cannot be used: answered with the error alone, and nothing is read. */
    record SessionError(Errors error) implements FetchContext {
        @Override
        public List<FetchTopic> topics() {
            return List.of();
        }

        @Override
        public FetchResponseData respond(FetchResponseData read) {
            return new FetchResponseData().setErrorCode(error.code()).setSessionId(FetchMetadata.INVALID_SESSION_ID);
        }
    }

    /**
     * A full fetch that asked for a session: every partition asked is answered, and a session of them is opened
     * with what the answer tells, if the cache has room (else the session id is 0 and the fetcher goes on with full
     * fetches).
     */
    record Full(List<FetchTopic> topics, FetchSessionCache cache, boolean follower, boolean byTopicId) implements FetchContext {
        @Override
        public FetchResponseData respond(FetchResponseData read) {
            int size = topics.stream().mapToInt(t -> t.partitions().size()).sum();
            Optional<FetchSession> session = cache.maybeCreate(follower, byTopicId, size, () -> FetchSession.partitionsOf(topics));
            session.ifPresent(opened -> opened.told(read));
            return read.setSessionId(session.map(FetchSession::id).orElse(FetchMetadata.INVALID_SESSION_ID));
        }
    }

    /**
     * An incremental fetch: every partition of the session is read, and only those that changed since the
     * fetcher was last told are answered. {@code expectedEpoch} is the session's epoch this fetch moved it to: if
     * another fetch of the session came meanwhile, this one is answered INVALID_FETCH_SESSION_EPOCH.
     */
    final class Incremental implements FetchContext {
        private final FetchSession session;
        private final int expectedEpoch;
        private final List<FetchTopic> topics = new ArrayList<>();

        Incremental(FetchSession session, int expectedEpoch) {
            this.session = session;
            this.expectedEpoch = expectedEpoch;
            FetchTopic current = null;
            for (CachedPartition partition : session.partitions()) {
                SessionPartition key = partition.key();
                if (current == null || !current.topicId().equals(key.topicId()) || !current.topic().equals(key.topic())) {
                    current = new FetchTopic().setTopic(key.topic()).setTopicId(key.topicId());
                    topics.add(current);
                }
                current.partitions().add(partition.request());
            }
        }

        @Override
        public List<FetchTopic> topics() {
            return topics;
        }

        @Override
        public FetchResponseData respond(FetchResponseData read) {
            synchronized (session) {
                if (session.epoch() != expectedEpoch) {
                    return new FetchResponseData().setErrorCode(Errors.INVALID_FETCH_SESSION_EPOCH.code()).setSessionId(session.id());
                }
                return read.setResponses(session.changed(read.responses())).setSessionId(session.id());
            }
        }
    }
}
