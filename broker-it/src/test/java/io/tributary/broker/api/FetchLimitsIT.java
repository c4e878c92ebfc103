package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import io.tributary.broker.testing.Clients;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData.PartitionData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fetch limits on the wire: partition and response max.bytes, the first-batch exception, offsets out of range. */
class FetchLimitsIT {
    private static final String TOPIC = "limits";
    private static final int BATCH_VALUE_BYTES = 1000;
    private static TestBroker broker;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir);
        try (Admin admin = Clients.admin(broker.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1))).all().get();
        }
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(), Map.of("linger.ms", 0))) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(TOPIC, i % 2, null, new byte[BATCH_VALUE_BYTES])).get(); // one batch each
            }
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static List<PartitionData> fetch(int responseMaxBytes, int partitionMaxBytes, long offset) throws Exception {
        try (RawConnection raw = new RawConnection("127.0.0.1", broker.port())) {
            FetchRequestData request = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(1)
                    .setMaxBytes(responseMaxBytes).setSessionEpoch(-1)
                    .setTopics(List.of(new FetchRequestData.FetchTopic().setTopic(TOPIC).setPartitions(List.of(
                            new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(offset).setPartitionMaxBytes(partitionMaxBytes),
                            new FetchRequestData.FetchPartition().setPartition(1).setFetchOffset(offset).setPartitionMaxBytes(partitionMaxBytes)))));
            FetchResponse response = (FetchResponse) raw.request(ApiKeys.FETCH, (short) 12, request);
            return response.data().responses().get(0).partitions();
        }
    }

    private static int bytes(PartitionData partition) {
        return FetchResponse.recordsSize(partition);
    }

    @Test
    void generousLimitsReturnEverything() throws Exception {
        List<PartitionData> partitions = fetch(1 << 20, 1 << 20, 0);
        assertThat(partitions).allSatisfy(p -> {
            assertThat(p.highWatermark()).isEqualTo(5);
            assertThat(FetchResponse.recordsOrFail(p).batches()).hasSize(5);
        });
    }

    @Test
    void partitionMaxBytesCapsEachPartitionButTheFirstBatchAlwaysComesWhole() throws Exception {
        List<PartitionData> partitions = fetch(1 << 20, 10, 0);
        assertThat(FetchResponse.recordsOrFail(partitions.get(0)).batches()).hasSize(1);
        // Like Kafka, a limit may cut a batch short; clients drop such a tail, so count whole batches.
        assertThat(FetchResponse.recordsOrFail(partitions.get(1)).batches()).as("only the first batch may exceed the limit").isEmpty();
        assertThat(bytes(partitions.get(1))).isLessThanOrEqualTo(10);

        List<PartitionData> twoBatches = fetch(1 << 20, 2 * (BATCH_VALUE_BYTES + 100), 0);
        assertThat(twoBatches).allSatisfy(p -> assertThat(FetchResponse.recordsOrFail(p).batches()).hasSize(2));
    }

    @Test
    void responseMaxBytesCapsTheWholeResponse() throws Exception {
        List<PartitionData> partitions = fetch(3 * (BATCH_VALUE_BYTES + 100), 1 << 20, 0);
        assertThat(bytes(partitions.get(0)) + bytes(partitions.get(1))).isLessThanOrEqualTo(3 * (BATCH_VALUE_BYTES + 100));
        assertThat(FetchResponse.recordsOrFail(partitions.get(0)).batches()).hasSize(3);
        assertThat(FetchResponse.recordsOrFail(partitions.get(1)).batches()).isEmpty();
    }

    @Test
    void anOffsetBeyondTheEndIsOutOfRange() throws Exception {
        assertThat(fetch(1 << 20, 1 << 20, 99)).allSatisfy(p -> {
            assertThat(Errors.forCode(p.errorCode())).isEqualTo(Errors.OFFSET_OUT_OF_RANGE);
            assertThat(p.highWatermark()).isEqualTo(5);
        });
    }
}
