package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import io.tributary.broker.testing.AdvertisedVersions;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every version this broker advertises for the APIs of the server issue, with a typical request
 * serialized by kafka-clients at exactly that version: each gets a well-formed answer without
 * errors (a response field that a version cannot carry would otherwise fail serialization).
 */
class AllVersionsIT {
    private static final String TOPIC = "versions";
    /** In this order: DeleteTopics removes what CreateTopics made. */
    private static final List<ApiKeys> SERVER_APIS = List.of(ApiKeys.API_VERSIONS, ApiKeys.METADATA, ApiKeys.PRODUCE,
            ApiKeys.FETCH, ApiKeys.LIST_OFFSETS, ApiKeys.DELETE_RECORDS, ApiKeys.CREATE_TOPICS, ApiKeys.CREATE_PARTITIONS, ApiKeys.DELETE_TOPICS,
            ApiKeys.DESCRIBE_CONFIGS, ApiKeys.INCREMENTAL_ALTER_CONFIGS, ApiKeys.ALTER_CONFIGS, ApiKeys.DESCRIBE_CLUSTER,
            ApiKeys.INIT_PRODUCER_ID);

    private static TestBroker broker;
    private static RawConnection raw;
    private static Uuid topicId;

    @BeforeAll
    static void start(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir);
        raw = new RawConnection("127.0.0.1", broker.port());
        topicId = AdvertisedVersions.topicId(raw, TOPIC);
    }

    @AfterAll
    static void stop() throws Exception {
        raw.close();
        broker.close();
    }

    static Stream<Arguments> versions() {
        return AdvertisedVersions.of(SERVER_APIS);
    }

    @ParameterizedTest(name = "{0} v{1}")
    @MethodSource("versions")
    void answersWithoutErrors(ApiKeys key, short version) throws Exception {
        AbstractResponse response = raw.request(key, version, request(key, version));
        assertThat(response.errorCounts().keySet()).as("%s v%d", key, version).containsOnly(Errors.NONE);
    }

    private static ApiMessage request(ApiKeys key, short v) {
        String name = "v" + v + "-" + key.name().toLowerCase();
        return switch (key) {
            case API_VERSIONS -> new ApiVersionsRequestData().setClientSoftwareName(v >= 3 ? "test" : null)
                    .setClientSoftwareVersion(v >= 3 ? "1.0" : null);
            case METADATA -> new MetadataRequestData().setTopics(List.of(new MetadataRequestData.MetadataRequestTopic().setName(TOPIC)));
            case PRODUCE -> {
                ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
                topics.add(new ProduceRequestData.TopicProduceData().setName(v >= 13 ? "" : TOPIC).setTopicId(v >= 13 ? topicId : Uuid.ZERO_UUID)
                        .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(0)
                                .setRecords(MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(("v" + v).getBytes()))))));
                yield new ProduceRequestData().setAcks((short) 1).setTimeoutMs(5000).setTopicData(topics);
            }
            case FETCH -> new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(1).setMaxBytes(1 << 20)
                    .setSessionEpoch(-1)
                    .setTopics(List.of(new FetchRequestData.FetchTopic().setTopic(v >= 13 ? "" : TOPIC).setTopicId(v >= 13 ? topicId : Uuid.ZERO_UUID)
                            .setPartitions(List.of(new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(0)
                                    .setPartitionMaxBytes(1 << 20)))));
            case LIST_OFFSETS -> new ListOffsetsRequestData().setReplicaId(-1).setTopics(List.of(new ListOffsetsRequestData.ListOffsetsTopic()
                    .setName(TOPIC).setPartitions(List.of(new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(0)
                            .setTimestamp(-1)))));
            case CREATE_TOPICS -> {
                CreateTopicsRequestData.CreatableTopicCollection topics = new CreateTopicsRequestData.CreatableTopicCollection();
                topics.add(new CreateTopicsRequestData.CreatableTopic().setName(name).setNumPartitions(1).setReplicationFactor((short) 1));
                yield new CreateTopicsRequestData().setTopics(topics).setTimeoutMs(5000);
            }
            case CREATE_PARTITIONS -> {
                CreatePartitionsRequestData.CreatePartitionsTopicCollection topics = new CreatePartitionsRequestData.CreatePartitionsTopicCollection();
                topics.add(new CreatePartitionsRequestData.CreatePartitionsTopic().setName(TOPIC).setCount(2 + v).setAssignments(null));
                yield new CreatePartitionsRequestData().setTopics(topics).setTimeoutMs(5000);
            }
            case DELETE_TOPICS -> {
                String doomed = "v" + (v + 1) + "-create_topics"; // CreateTopics made v2..v7
                yield v >= 6
                        ? new DeleteTopicsRequestData().setTopics(List.of(new DeleteTopicsRequestData.DeleteTopicState().setName(doomed)))
                        : new DeleteTopicsRequestData().setTopicNames(List.of(doomed));
            }
            case DESCRIBE_CONFIGS -> new DescribeConfigsRequestData().setResources(List.of(new DescribeConfigsRequestData.DescribeConfigsResource()
                    .setResourceType(ConfigResource.Type.TOPIC.id()).setResourceName(TOPIC).setConfigurationKeys(null)));
            case INCREMENTAL_ALTER_CONFIGS -> {
                IncrementalAlterConfigsRequestData.AlterableConfigCollection configs = new IncrementalAlterConfigsRequestData.AlterableConfigCollection();
                configs.add(new IncrementalAlterConfigsRequestData.AlterableConfig().setName("retention.ms").setConfigOperation((byte) 0).setValue("86400000"));
                IncrementalAlterConfigsRequestData.AlterConfigsResourceCollection resources = new IncrementalAlterConfigsRequestData.AlterConfigsResourceCollection();
                resources.add(new IncrementalAlterConfigsRequestData.AlterConfigsResource().setResourceType(ConfigResource.Type.TOPIC.id())
                        .setResourceName(TOPIC).setConfigs(configs));
                yield new IncrementalAlterConfigsRequestData().setResources(resources);
            }
            case ALTER_CONFIGS -> {
                AlterConfigsRequestData.AlterableConfigCollection configs = new AlterConfigsRequestData.AlterableConfigCollection();
                configs.add(new AlterConfigsRequestData.AlterableConfig().setName("retention.ms").setValue("86400000"));
                AlterConfigsRequestData.AlterConfigsResourceCollection resources = new AlterConfigsRequestData.AlterConfigsResourceCollection();
                resources.add(new AlterConfigsRequestData.AlterConfigsResource().setResourceType(ConfigResource.Type.TOPIC.id())
                        .setResourceName(TOPIC).setConfigs(configs));
                yield new AlterConfigsRequestData().setResources(resources);
            }
            case DESCRIBE_CLUSTER -> new DescribeClusterRequestData();
            case DELETE_RECORDS -> new DeleteRecordsRequestData().setTimeoutMs(10_000).setTopics(List.of(
                    new DeleteRecordsRequestData.DeleteRecordsTopic().setName(TOPIC).setPartitions(List.of(
                            new DeleteRecordsRequestData.DeleteRecordsPartition().setPartitionIndex(0).setOffset(0)))));
            case INIT_PRODUCER_ID -> new InitProducerIdRequestData().setTransactionalId(null).setTransactionTimeoutMs(60_000);
            default -> throw new IllegalArgumentException(key.toString());
        };
    }
}
