package io.tributary.broker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.tributary.broker.testing.FakeTime;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchRequestData.FetchPartition;
import org.apache.kafka.common.message.FetchRequestData.FetchTopic;
import org.apache.kafka.common.message.FetchRequestData.ForgottenTopic;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.FetchResponseData.FetchableTopicResponse;
import org.apache.kafka.common.message.FetchResponseData.PartitionData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;

/** Kafka's fetch session rules (KIP-227) over a fake log: what an incremental fetch reads and what it answers. */
class FetchSessionsTest {
    private static final short BY_NAME = 12;
    private static final short BY_ID = 13;
    private static final int SLOTS = 3;

    private final FakeTime time = new FakeTime();
    private final FetchSessionCache cache = new FetchSessionCache(SLOTS, FetchSessionCache.EVICTION_MS, time);
    private final FetchSessions sessions = new FetchSessions(cache);
    /** What the fake log answers per partition of topic "t": its high watermark, and records when set. */
    private final Map<Integer, Long> highWatermarks = new HashMap<>();
    private final Map<Integer, Boolean> hasRecords = new HashMap<>();
    private final Map<Integer, Errors> errors = new HashMap<>();

    @Test
    void aFullFetchOpensASessionAndAnIncrementalOneReadsEveryPartitionButAnswersOnlyTheChangedOnes() {
        FetchResponseData full = fetch(request(0, 0, partitions(0, 1, 2)), BY_NAME, false);
        int id = full.sessionId();
        assertThat(id).isPositive();
        assertThat(answered(full)).containsExactly(0, 1, 2);

        FetchContext unchanged = sessions.open(request(id, 1, List.of()), BY_NAME, false);
        assertThat(read(unchanged)).as("an incremental fetch reads the whole session").containsExactly(0, 1, 2);
        FetchResponseData nothing = unchanged.respond(readAll(unchanged));
        assertThat(nothing.sessionId()).isEqualTo(id);
        assertThat(nothing.errorCode()).isZero();
        assertThat(answered(nothing)).isEmpty();

        highWatermarks.put(1, 6L);
        assertThat(answered(fetch(request(id, 2, List.of()), BY_NAME, false))).containsExactly(1);
        hasRecords.put(2, true);
        assertThat(answered(fetch(request(id, 3, List.of()), BY_NAME, false))).as("records always go").containsExactly(2);
        assertThat(answered(fetch(request(id, 4, List.of()), BY_NAME, false))).containsExactly(2);
    }

    @Test
    void anIncrementalFetchAddsAndUpdatesWhatItNamesDropsWhatItForgetsAndReadsPartitionsWithRecordsLast() {
        int id = fetch(request(0, 0, partitions(0, 1, 2)), BY_NAME, false).sessionId();
        FetchRequestData changes = request(id, 1, List.of(new FetchTopic().setTopic("t").setPartitions(List.of(
                new FetchPartition().setPartition(0).setFetchOffset(42), new FetchPartition().setPartition(3)))));
        changes.setForgottenTopicsData(List.of(new ForgottenTopic().setTopic("t").setPartitions(List.of(1))));
        FetchContext context = sessions.open(changes, BY_NAME, false);
        assertThat(read(context)).containsExactly(0, 2, 3);
        assertThat(context.topics().get(0).partitions().get(0).fetchOffset()).isEqualTo(42);
        hasRecords.put(0, true);
        context.respond(readAll(context));
        hasRecords.clear();

        FetchContext next = sessions.open(request(id, 2, List.of()), BY_NAME, false);
        assertThat(read(next)).as("the partition that returned records goes to the back").containsExactly(2, 3, 0);
    }

    @Test
    void aPartitionInErrorIsAnsweredEveryTimeAndOnceMoreWhenTheErrorIsGone() {
        int id = fetch(request(0, 0, partitions(0, 1)), BY_NAME, false).sessionId();
        errors.put(0, Errors.NOT_LEADER_OR_FOLLOWER);
        assertThat(answered(fetch(request(id, 1, List.of()), BY_NAME, false))).containsExactly(0);
        assertThat(answered(fetch(request(id, 2, List.of()), BY_NAME, false))).containsExactly(0);
        errors.clear();
        assertThat(answered(fetch(request(id, 3, List.of()), BY_NAME, false))).containsExactly(0);
        assertThat(answered(fetch(request(id, 4, List.of()), BY_NAME, false))).isEmpty();
    }

    @Test
    void anAnswerThatWasNotSentGoesOutAgain() {
        int id = fetch(request(0, 0, partitions(0, 1)), BY_NAME, false).sessionId();
        highWatermarks.put(0, 9L);
        FetchResponseData throttled = fetch(request(id, 1, List.of()), BY_NAME, false);
        assertThat(answered(throttled)).containsExactly(0);
        sessions.unsent(throttled);
        assertThat(answered(fetch(request(id, 2, List.of()), BY_NAME, false))).containsExactly(0);
    }

    @Test
    void sessionErrorsAsKafkaAnswersThem() {
        int id = fetch(request(0, 0, partitions(0)), BY_NAME, false).sessionId();
        assertThat(error(sessions.open(request(id + 1, 1, List.of()), BY_NAME, false))).isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND);
        assertThat(error(sessions.open(request(id, 2, List.of()), BY_NAME, false))).isEqualTo(Errors.INVALID_FETCH_SESSION_EPOCH);
        assertThat(error(sessions.open(request(id, 1, List.of()), BY_ID, false))).isEqualTo(Errors.FETCH_SESSION_TOPIC_ID_ERROR);

        FetchContext first = sessions.open(request(id, 1, List.of()), BY_NAME, false);
        FetchContext duplicate = sessions.open(request(id, 1, List.of()), BY_NAME, false);
        assertThat(error(duplicate)).as("the epoch moved on").isEqualTo(Errors.INVALID_FETCH_SESSION_EPOCH);
        sessions.open(request(id, 2, List.of()), BY_NAME, false).respond(new FetchResponseData());
        FetchResponseData late = first.respond(readAll(first));
        assertThat(Errors.forCode(late.errorCode())).as("another fetch of the session came meanwhile")
                .isEqualTo(Errors.INVALID_FETCH_SESSION_EPOCH);

        FetchResponseData closing = fetch(request(id, -1, partitions(0)), BY_NAME, false);
        assertThat(closing.sessionId()).as("epoch -1 ends the session and opens none").isZero();
        assertThat(answered(closing)).containsExactly(0);
        assertThat(error(sessions.open(request(id, 3, List.of()), BY_NAME, false))).isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND);
        assertThat(cache.sessions()).isZero();
    }

    @Test
    void aSessionByTopicIdMatchesItsAnswersById() {
        Uuid topicId = Uuid.randomUuid();
        FetchRequestData byId = request(0, 0, List.of(new FetchTopic().setTopicId(topicId).setPartitions(List.of(
                new FetchPartition().setPartition(0), new FetchPartition().setPartition(1)))));
        int id = fetch(byId, BY_ID, false).sessionId();
        highWatermarks.put(1, 3L);
        FetchResponseData changed = fetch(request(id, 1, List.of()), BY_ID, false);
        assertThat(changed.responses()).singleElement().satisfies(topic -> {
            assertThat(topic.topicId()).isEqualTo(topicId);
            assertThat(topic.partitions()).extracting(PartitionData::partitionIndex).containsExactly(1);
        });
    }

    @Test
    void forgettingEveryPartitionEndsTheSession() {
        int id = fetch(request(0, 0, partitions(0)), BY_NAME, false).sessionId();
        FetchRequestData forgetAll = request(id, 1, List.of());
        forgetAll.setForgottenTopicsData(List.of(new ForgottenTopic().setTopic("t").setPartitions(List.of(0))));
        FetchContext context = sessions.open(forgetAll, BY_NAME, false);
        assertThat(context).isInstanceOf(FetchContext.Sessionless.class);
        assertThat(context.respond(readAll(context)).sessionId()).isZero();
        assertThat(cache.sessions()).isZero();
    }

    @Test
    void aFullCacheGivesANewConsumerNoSessionAndCountsOnlyWhatItHolds() {
        for (int i = 0; i < SLOTS; i++) {
            assertThat(fetch(request(0, 0, partitions(0, 1)), BY_NAME, false).sessionId()).isPositive();
        }
        assertThat(fetch(request(0, 0, partitions(0, 1, 2)), BY_NAME, false).sessionId())
                .as("young sessions are evicted by nobody but followers").isZero();
        assertThat(cache.sessions()).isEqualTo(SLOTS);
        assertThat(cache.cachedPartitions()).isEqualTo(2L * SLOTS);
        assertThat(cache.evictions()).isZero();
    }

    @Test
    void aSessionUnusedForTwoMinutesMakesRoom() {
        int stale = fetch(request(0, 0, partitions(0)), BY_NAME, false).sessionId();
        time.sleep(1000);
        List<Integer> used = new ArrayList<>();
        for (int i = 1; i < SLOTS; i++) {
            used.add(fetch(request(0, 0, partitions(0, 1)), BY_NAME, false).sessionId());
        }
        time.sleep(FetchSessionCache.EVICTION_MS - 500);
        used.forEach(id -> fetch(request(id, 1, List.of()), BY_NAME, false)); // used recently
        time.sleep(1000);
        assertThat(fetch(request(0, 0, partitions(0)), BY_NAME, false).sessionId()).isPositive();
        assertThat(error(sessions.open(request(stale, 1, List.of()), BY_NAME, false))).isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND);
        assertThat(cache.evictions()).isOne();
    }

    @Test
    void aFollowerEvictsTheSmallestConsumerSessionHoweverYoungButNotAYoungFollowerSession() {
        List<Integer> consumers = new ArrayList<>();
        consumers.add(fetch(request(0, 0, partitions(0, 1)), BY_NAME, false).sessionId());
        consumers.add(fetch(request(0, 0, partitions(0)), BY_NAME, false).sessionId());
        int follower = fetch(request(0, 0, partitions(0)), BY_NAME, true).sessionId();
        assertThat(fetch(request(0, 0, partitions(0)), BY_NAME, true).sessionId()).isPositive();
        assertThat(error(sessions.open(request(consumers.get(1), 1, List.of()), BY_NAME, false)))
                .as("the consumer session with fewer partitions went").isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND);
        assertThat(fetch(request(0, 0, partitions(0)), BY_NAME, true).sessionId()).isPositive();
        assertThat(fetch(request(0, 0, partitions(0, 1, 2)), BY_NAME, true).sessionId())
                .as("only followers' sessions are left, all young").isZero();
        assertThat(error(sessions.open(request(follower, 1, List.of()), BY_NAME, true))).isEqualTo(Errors.NONE);
    }

    @Test
    void aConsumerEvictsAnOlderSessionWithFewerPartitionsOnly() {
        int small = fetch(request(0, 0, partitions(0)), BY_NAME, false).sessionId();
        int large = fetch(request(0, 0, partitions(0, 1, 2)), BY_NAME, false).sessionId();
        int follower = fetch(request(0, 0, partitions(0, 1, 2, 3)), BY_NAME, true).sessionId();
        time.sleep(FetchSessionCache.EVICTION_MS + 1);
        for (int id : List.of(small, large, follower)) {
            fetch(request(id, 1, List.of()), BY_NAME, id == follower); // each is used now, and old
        }
        assertThat(fetch(request(0, 0, partitions(0)), BY_NAME, false).sessionId())
                .as("no more partitions than the least worth session").isZero();
        assertThat(fetch(request(0, 0, partitions(0, 1)), BY_NAME, false).sessionId()).isPositive();
        assertThat(error(sessions.open(request(small, 2, List.of()), BY_NAME, false))).isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND);
        assertThat(error(sessions.open(request(large, 2, List.of()), BY_NAME, false))).isEqualTo(Errors.NONE);
    }

    @Test
    void noSlotsNoSessions() {
        FetchSessions none = new FetchSessions(new FetchSessionCache(0, FetchSessionCache.EVICTION_MS, time));
        FetchContext context = none.open(request(0, 0, partitions(0)), BY_NAME, true);
        assertThat(context.respond(readAll(context)).sessionId()).isZero();
    }

    private FetchResponseData fetch(FetchRequestData request, short version, boolean follower) {
        FetchContext context = sessions.open(request, version, follower);
        return context.respond(readAll(context));
    }

    private static Errors error(FetchContext context) {
        return context instanceof FetchContext.SessionError error ? error.error() : Errors.NONE;
    }

    private static FetchRequestData request(int sessionId, int epoch, List<FetchTopic> topics) {
        return new FetchRequestData().setSessionId(sessionId).setSessionEpoch(epoch).setTopics(topics);
    }

    private static List<FetchTopic> partitions(int... partitions) {
        FetchTopic topic = new FetchTopic().setTopic("t");
        for (int partition : partitions) {
            topic.partitions().add(new FetchPartition().setPartition(partition));
        }
        return List.of(topic);
    }

    private static List<Integer> read(FetchContext context) {
        return context.topics().stream().flatMap(t -> t.partitions().stream()).map(FetchPartition::partition).toList();
    }

    private static List<Integer> answered(FetchResponseData response) {
        return response.responses().stream().flatMap(t -> t.partitions().stream()).map(PartitionData::partitionIndex).toList();
    }

    /** What the broker's reader does: one answer per partition asked, in order, with the topic's name and id as asked. */
    private FetchResponseData readAll(FetchContext context) {
        FetchResponseData response = new FetchResponseData();
        for (FetchTopic topic : context.topics()) {
            List<PartitionData> partitions = new ArrayList<>();
            for (FetchPartition partition : topic.partitions()) {
                int index = partition.partition();
                boolean records = hasRecords.getOrDefault(index, false);
                long highWatermark = highWatermarks.getOrDefault(index, 5L);
                partitions.add(new PartitionData().setPartitionIndex(index)
                        .setErrorCode(errors.getOrDefault(index, Errors.NONE).code())
                        .setHighWatermark(highWatermark).setLastStableOffset(highWatermark).setLogStartOffset(0)
                        .setRecords(records ? MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("v".getBytes()))
                                : MemoryRecords.EMPTY));
            }
            response.responses().add(new FetchableTopicResponse().setTopic(topic.topic()).setTopicId(topic.topicId())
                    .setPartitions(partitions));
        }
        return response;
    }
}
