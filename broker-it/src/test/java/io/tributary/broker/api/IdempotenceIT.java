package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import io.tributary.broker.testing.Clients;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.testkit.wire.Requests;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.message.ProduceResponseData.PartitionProduceResponse;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Idempotent produce on the wire: producer ids, sequence checks, retries, and acks=0. */
class IdempotenceIT {
    private static final short PRODUCE_VERSION = 9;
    private static TestBroker broker;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir);
        try (Admin admin = Clients.admin(broker.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic("sequences", 1, (short) 1), new NewTopic("fire-and-forget", 1, (short) 1)))
                    .all().get();
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static RawConnection connect() throws Exception {
        return new RawConnection("127.0.0.1", broker.port());
    }

    private static InitProducerIdResponseData initProducerId(RawConnection raw, long producerId, short epoch) throws Exception {
        return ((InitProducerIdResponse) raw.request(ApiKeys.INIT_PRODUCER_ID, (short) 4, new InitProducerIdRequestData()
                .setTransactionalId(null).setTransactionTimeoutMs(60_000).setProducerId(producerId).setProducerEpoch(epoch))).data();
    }


    private static PartitionProduceResponse send(RawConnection raw, String topic, long producerId, short epoch, int sequence, int count)
            throws Exception {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            records[i] = new SimpleRecord(("seq-" + (sequence + i)).getBytes());
        }
        MemoryRecords batch = MemoryRecords.withIdempotentRecords(Compression.NONE, producerId, epoch, sequence, records);
        ProduceResponse response = (ProduceResponse) raw.request(ApiKeys.PRODUCE, PRODUCE_VERSION, Requests.produce(topic, (short) -1, batch));
        return response.data().responses().iterator().next().partitionResponses().get(0);
    }

    @Test
    void producerIdsAreUniqueAndEpochsBump() throws Exception {
        try (RawConnection raw = connect()) {
            InitProducerIdResponseData first = initProducerId(raw, -1, (short) -1);
            InitProducerIdResponseData second = initProducerId(raw, -1, (short) -1);
            assertThat(first.errorCode()).isZero();
            assertThat(second.producerId()).isNotEqualTo(first.producerId());
            assertThat(first.producerEpoch()).isZero();
            InitProducerIdResponseData bumped = initProducerId(raw, first.producerId(), first.producerEpoch());
            assertThat(bumped.producerId()).isEqualTo(first.producerId());
            assertThat(bumped.producerEpoch()).isEqualTo((short) 1);
        }
    }

    @Test
    void sequencesAreCheckedAndRetriesAreNotAppendedTwice() throws Exception {
        String topic = "sequences";
        try (RawConnection raw = connect()) {
            InitProducerIdResponseData fresh = initProducerId(raw, -1, (short) -1);
            InitProducerIdResponseData producer = initProducerId(raw, fresh.producerId(), fresh.producerEpoch()); // epoch 1
            long id = producer.producerId();
            short epoch = producer.producerEpoch();

            PartitionProduceResponse first = send(raw, topic, id, epoch, 0, 5);
            assertThat(Errors.forCode(first.errorCode())).isEqualTo(Errors.NONE);
            assertThat(first.baseOffset()).isZero();
            assertThat(send(raw, topic, id, epoch, 5, 5).baseOffset()).isEqualTo(5);

            PartitionProduceResponse retry = send(raw, topic, id, epoch, 0, 5);
            assertThat(Errors.forCode(retry.errorCode())).isEqualTo(Errors.NONE);
            assertThat(retry.baseOffset()).as("a retry gets its first offsets back").isZero();

            assertThat(Errors.forCode(send(raw, topic, id, epoch, 20, 1).errorCode())).isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);
            assertThat(Errors.forCode(send(raw, topic, id, epoch, 3, 1).errorCode()))
                    .as("not a batch that was appended: an error, as in Apache Kafka, never a duplicate the client counts as written")
                    .isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);
            assertThat(Errors.forCode(send(raw, topic, id, (short) (epoch - 1), 10, 1).errorCode()))
                    .isIn(Errors.INVALID_PRODUCER_EPOCH, Errors.PRODUCER_FENCED);

            PartitionProduceResponse next = send(raw, topic, id, epoch, 10, 1);
            assertThat(next.baseOffset()).as("nothing rejected was appended").isEqualTo(10);
        }
    }

    @Test
    void acksZeroGetsNoResponseAndTheNextRequestIsAnsweredInOrder() throws Exception {
        try (RawConnection raw = connect()) {
            raw.send(ApiKeys.PRODUCE, PRODUCE_VERSION, Requests.produce("fire-and-forget", (short) 0,
                    MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("x".getBytes()))));
            RequestHeader versions = raw.send(ApiKeys.API_VERSIONS, (short) 3,
                    new ApiVersionsRequestData().setClientSoftwareName("raw").setClientSoftwareVersion("1"));
            ApiVersionsResponse response = (ApiVersionsResponse) org.apache.kafka.common.requests.AbstractResponse
                    .parseResponse(raw.readFrame(), versions);
            assertThat(response.data().errorCode()).isZero();
        }
    }
}
