package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.AdvertisedVersions;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.OffsetFetchResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every version this broker advertises for the consumer-group APIs, with a request serialized by
 * kafka-clients at exactly that version: each gets a well-formed answer with the expected error codes
 * (a response field a version cannot carry would fail serialization instead).
 */
class GroupApiVersionsIT {
    private static final String TOPIC = "group-versions";
    /** In this order: OffsetFetch, DescribeGroups, DeleteGroups and OffsetDelete use what OffsetCommit stored. */
    private static final List<ApiKeys> GROUP_APIS = List.of(ApiKeys.FIND_COORDINATOR, ApiKeys.JOIN_GROUP,
            ApiKeys.SYNC_GROUP, ApiKeys.HEARTBEAT, ApiKeys.LEAVE_GROUP, ApiKeys.OFFSET_COMMIT, ApiKeys.OFFSET_FETCH,
            ApiKeys.LIST_GROUPS, ApiKeys.DESCRIBE_GROUPS, ApiKeys.OFFSET_DELETE, ApiKeys.DELETE_GROUPS);

    private static TestBroker broker;
    private static RawConnection raw;
    private static Uuid topicId;

    @BeforeAll
    static void start(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir, Map.of(BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "0",
                BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "3"));
        raw = new RawConnection("127.0.0.1", broker.port());
        topicId = AdvertisedVersions.topicId(raw, TOPIC);
    }

    @AfterAll
    static void stop() throws Exception {
        raw.close();
        broker.close();
    }

    static Stream<Arguments> versions() {
        return AdvertisedVersions.of(GROUP_APIS);
    }

    @ParameterizedTest(name = "{0} v{1}")
    @MethodSource("versions")
    void answersEveryAdvertisedVersion(ApiKeys key, short version) throws Exception {
        AbstractResponse response = raw.request(key, version, request(key, version));
        Set<Errors> errors = new HashSet<>(response.errorCounts().keySet());
        errors.remove(Errors.NONE);
        assertThat(errors).as("%s v%d", key, version).isEqualTo(expectedErrors(key, version));
        if (key == ApiKeys.OFFSET_FETCH) {
            OffsetFetchResponse fetched = (OffsetFetchResponse) response;
            assertThat(fetched.group(committedGroup(version)).topics().get(0).partitions().get(0).committedOffset())
                    .as("OffsetFetch v%d", version).isEqualTo(42);
        }
    }

    /** Requests naming members that do not exist get UNKNOWN_MEMBER_ID; a new JoinGroup v4+ gets MEMBER_ID_REQUIRED. */
    private static Set<Errors> expectedErrors(ApiKeys key, short v) {
        return switch (key) {
            case JOIN_GROUP -> v >= 4 ? Set.of(Errors.MEMBER_ID_REQUIRED) : Set.of();
            case SYNC_GROUP, HEARTBEAT, LEAVE_GROUP -> Set.of(Errors.UNKNOWN_MEMBER_ID);
            default -> Set.of();
        };
    }

    /** OffsetCommit vN commits for group "committed-vN"; OffsetFetch v1 reads the group OffsetCommit v2 wrote. */
    private static String committedGroup(short offsetFetchVersion) {
        return "committed-v" + Math.max(2, offsetFetchVersion);
    }

    private static ApiMessage request(ApiKeys key, short v) {
        String group = key.name().toLowerCase() + "-v" + v;
        return switch (key) {
            case FIND_COORDINATOR -> v >= 4 ? new FindCoordinatorRequestData().setCoordinatorKeys(List.of(group))
                    : new FindCoordinatorRequestData().setKey(group);
            case JOIN_GROUP -> {
                JoinGroupRequestData.JoinGroupRequestProtocolCollection protocols = new JoinGroupRequestData.JoinGroupRequestProtocolCollection();
                protocols.add(new JoinGroupRequestData.JoinGroupRequestProtocol().setName("range").setMetadata(new byte[0]));
                yield new JoinGroupRequestData().setGroupId(group).setMemberId("").setProtocolType("consumer")
                        .setSessionTimeoutMs(10_000).setRebalanceTimeoutMs(10_000).setProtocols(protocols);
            }
            case SYNC_GROUP -> new SyncGroupRequestData().setGroupId("join_group-v0").setMemberId("nobody").setGenerationId(1);
            case HEARTBEAT -> new HeartbeatRequestData().setGroupId("join_group-v0").setMemberId("nobody").setGenerationId(1);
            case LEAVE_GROUP -> v >= 3
                    ? new LeaveGroupRequestData().setGroupId("join_group-v0")
                            .setMembers(List.of(new LeaveGroupRequestData.MemberIdentity().setMemberId("nobody")))
                    : new LeaveGroupRequestData().setGroupId("join_group-v0").setMemberId("nobody");
            case OFFSET_COMMIT -> new OffsetCommitRequestData().setGroupId("committed-v" + v).setGenerationIdOrMemberEpoch(-1)
                    .setMemberId("").setTopics(List.of(new OffsetCommitRequestData.OffsetCommitRequestTopic()
                            .setName(v >= 10 ? "" : TOPIC).setTopicId(v >= 10 ? topicId : Uuid.ZERO_UUID)
                            .setPartitions(List.of(new OffsetCommitRequestData.OffsetCommitRequestPartition()
                                    .setPartitionIndex(0).setCommittedOffset(42)))));
            case OFFSET_FETCH -> v >= 8
                    ? new OffsetFetchRequestData().setGroups(List.of(new OffsetFetchRequestData.OffsetFetchRequestGroup()
                            .setGroupId(committedGroup(v)).setTopics(List.of(new OffsetFetchRequestData.OffsetFetchRequestTopics()
                                    .setName(v >= 10 ? "" : TOPIC).setTopicId(v >= 10 ? topicId : Uuid.ZERO_UUID)
                                    .setPartitionIndexes(List.of(0))))))
                    : new OffsetFetchRequestData().setGroupId(committedGroup(v)).setTopics(List.of(
                            new OffsetFetchRequestData.OffsetFetchRequestTopic().setName(TOPIC).setPartitionIndexes(List.of(0))));
            case LIST_GROUPS -> new ListGroupsRequestData();
            case DESCRIBE_GROUPS -> new DescribeGroupsRequestData().setGroups(List.of("committed-v2", "join_group-v0"));
            case OFFSET_DELETE -> {
                OffsetDeleteRequestData.OffsetDeleteRequestTopicCollection topics = new OffsetDeleteRequestData.OffsetDeleteRequestTopicCollection();
                topics.add(new OffsetDeleteRequestData.OffsetDeleteRequestTopic().setName(TOPIC)
                        .setPartitions(List.of(new OffsetDeleteRequestData.OffsetDeleteRequestPartition().setPartitionIndex(0))));
                yield new OffsetDeleteRequestData().setGroupId("committed-v10").setTopics(topics);
            }
            case DELETE_GROUPS -> new DeleteGroupsRequestData().setGroupsNames(List.of("committed-v" + (v + 3)));
            default -> throw new IllegalArgumentException("not a group API: " + key);
        };
    }
}
