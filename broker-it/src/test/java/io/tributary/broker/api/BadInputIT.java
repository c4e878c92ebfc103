package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32C;
import io.tributary.broker.testing.Clients;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.testkit.wire.Requests;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.GetTelemetrySubscriptionsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.GetTelemetrySubscriptionsResponse;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Garbage and hostile requests: each closes at most its own connection or fails only its own
 * partition, appends nothing, and leaves the broker serving a client that stays connected
 * throughout.
 */
class BadInputIT {
    private static final String TOPIC = "victim";
    private static final int MAX_MESSAGE_BYTES = 10_000;
    private static final short PRODUCE_VERSION = 9;
    /** The batch CRC covers everything from the attributes field (after base offset, length, epoch, magic, crc) on. */
    private static final int CRC_COVERS_FROM = 8 + 4 + 4 + 1 + 4;

    private static TestBroker broker;
    private static KafkaProducer<byte[], byte[]> bystander;
    private static long sent;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir, Map.of("message.max.bytes", Integer.toString(MAX_MESSAGE_BYTES),
                "socket.request.max.bytes", Integer.toString(1024 * 1024)));
        bystander = Clients.producer(broker.bootstrapServers());
        bystander.send(new ProducerRecord<>(TOPIC, new byte[] {0})).get();
        sent = 1;
    }

    @AfterAll
    static void stop() {
        bystander.close();
        broker.close();
    }

    /** The connected client still works, and the log holds exactly what it wrote. */
    @AfterEach
    void bystanderIsUnaffectedAndNothingElseWasAppended() throws Exception {
        bystander.send(new ProducerRecord<>(TOPIC, new byte[] {1})).get();
        sent++;
        assertThat(logEndOffset()).isEqualTo(sent);
    }

    private static long logEndOffset() {
        TopicPartition partition = new TopicPartition(TOPIC, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(broker.bootstrapServers())) {
            return consumer.endOffsets(List.of(partition), Duration.ofSeconds(10)).get(partition);
        }
    }

    private static RawConnection connect() throws Exception {
        return new RawConnection("127.0.0.1", broker.port());
    }

    @Test
    void randomBytesAfterARequestHeaderCloseThatConnection() throws Exception {
        byte[] garbage = new byte[1000];
        new Random(42).nextBytes(garbage);
        ByteBuffer frame = ByteBuffer.wrap(garbage);
        frame.putShort(0, ApiKeys.PRODUCE.id).putShort(2, PRODUCE_VERSION);
        try (RawConnection raw = connect()) {
            raw.writeFrame(frame);
            assertThat(raw.closedByBroker(Duration.ofSeconds(10))).isTrue();
        }
    }

    @Test
    void randomBytesWithoutFramingNeverCrashTheBroker() throws Exception {
        Random random = new Random(7);
        for (int i = 0; i < 20; i++) {
            byte[] garbage = new byte[64 + random.nextInt(4000)];
            random.nextBytes(garbage);
            try (RawConnection raw = connect()) {
                raw.write(garbage);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {Integer.MAX_VALUE, 2 * 1024 * 1024, -1, 0})
    void anImpossibleSizePrefixClosesTheConnectionBeforeAnythingIsAllocated(int size) throws Exception {
        try (RawConnection raw = connect()) {
            raw.write(ByteBuffer.allocate(8).putInt(size).putInt(0).array());
            assertThat(raw.closedByBroker(Duration.ofSeconds(10))).isTrue();
        }
    }

    @Test
    void aTruncatedFrameIsDroppedWithItsConnection() throws Exception {
        ProduceRequestData produce = Requests.produce(TOPIC, (short) 1, MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(new byte[100])));
        RequestHeader header = new RequestHeader(ApiKeys.PRODUCE, PRODUCE_VERSION, "raw", 1);
        ByteBuffer full = org.apache.kafka.common.requests.RequestUtils.serialize(header.data(), header.headerVersion(), produce, PRODUCE_VERSION);
        byte[] truncated = new byte[4 + full.remaining() / 2];
        ByteBuffer.wrap(truncated).putInt(full.remaining()).put(full.array(), 0, truncated.length - 4);
        try (RawConnection raw = connect()) {
            raw.write(truncated);
        }
    }

    @Test
    void unknownApiKeysAreAnsweredWithUnsupportedVersionAndTheConnectionStaysUsable() throws Exception {
        try (RawConnection raw = connect()) {
            ByteBuffer request = ByteBuffer.allocate(10).putShort((short) 999).putShort((short) 0).putInt(77).putShort((short) -1);
            raw.writeFrame(request.flip());
            ByteBuffer response = raw.readFrame();
            assertThat(response.getInt()).isEqualTo(77);
            assertThat(response.getShort()).isEqualTo(Errors.UNSUPPORTED_VERSION.code());

            ApiVersionsResponse versions = (ApiVersionsResponse) raw.request(ApiKeys.API_VERSIONS, (short) 3,
                    new ApiVersionsRequestData().setClientSoftwareName("raw").setClientSoftwareVersion("1"));
            assertThat(versions.data().errorCode()).isZero();
        }
    }

    @Test
    void unsupportedVersionsOfKnownApisGetUnsupportedVersion() throws Exception {
        try (RawConnection raw = connect()) {
            GetTelemetrySubscriptionsResponse telemetry = (GetTelemetrySubscriptionsResponse) raw.request(
                    ApiKeys.GET_TELEMETRY_SUBSCRIPTIONS, (short) 0, new GetTelemetrySubscriptionsRequestData());
            assertThat(telemetry.errorCounts()).containsOnlyKeys(Errors.UNSUPPORTED_VERSION);

            // A version beyond what this kafka-clients knows: only the error code can be sent.
            ByteBuffer produceV99 = ByteBuffer.allocate(10).putShort(ApiKeys.PRODUCE.id).putShort((short) 99).putInt(5).putShort((short) -1);
            raw.writeFrame(produceV99.flip());
            ByteBuffer response = raw.readFrame();
            assertThat(response.getInt()).isEqualTo(5);
            assertThat(response.getShort()).isEqualTo(Errors.UNSUPPORTED_VERSION.code());
        }
    }

    @Test
    void aNewerApiVersionsGetsOurRangesInAVersionZeroResponse() throws Exception {
        try (RawConnection raw = connect()) {
            short tooNew = (short) (ApiKeys.API_VERSIONS.latestVersion() + 1);
            RequestHeader header = new RequestHeader(ApiKeys.API_VERSIONS, tooNew, "future-client", 9);
            ByteBuffer request = org.apache.kafka.common.requests.RequestUtils.serialize(header.data(), header.headerVersion(),
                    new ApiVersionsRequestData(), ApiKeys.API_VERSIONS.latestVersion());
            raw.writeFrame(request);
            ByteBuffer response = raw.readFrame();
            assertThat(response.getInt()).isEqualTo(9); // response header v0: just the correlation id
            ApiVersionsResponseData data = ApiVersionsResponse.parse(new org.apache.kafka.common.protocol.ByteBufferAccessor(response), (short) 0).data();
            assertThat(data.errorCode()).isEqualTo(Errors.UNSUPPORTED_VERSION.code());
            assertThat(data.apiKeys().find(ApiKeys.PRODUCE.id).maxVersion()).isEqualTo((short) 13);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bad topic", "..", "a/b", "ünïcode"})
    void invalidTopicNamesAreRejected(String name) throws Exception {
        try (RawConnection raw = connect()) {
            ProduceResponse produce = (ProduceResponse) raw.request(ApiKeys.PRODUCE, PRODUCE_VERSION,
                    Requests.produce(name, (short) 1, MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(new byte[10]))));
            assertThat(produce.errorCounts()).containsOnlyKeys(Errors.INVALID_TOPIC_EXCEPTION);

            MetadataResponse metadata = (MetadataResponse) raw.request(ApiKeys.METADATA, (short) 9,
                    new MetadataRequestData().setTopics(List.of(new MetadataRequestData.MetadataRequestTopic().setName(name)))
                            .setAllowAutoTopicCreation(true));
            assertThat(metadata.errors()).containsEntry(name, Errors.INVALID_TOPIC_EXCEPTION);
        }
    }

    @Test
    void anOversizedBatchIsRejectedWhole() throws Exception {
        MemoryRecords big = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(new byte[MAX_MESSAGE_BYTES + 1]));
        assertThat(produceError(big)).isEqualTo(Errors.MESSAGE_TOO_LARGE);
    }

    @Test
    void aCorruptedCrcIsRejected() throws Exception {
        MemoryRecords records = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("key".getBytes(), "value".getBytes()));
        ByteBuffer buffer = records.buffer();
        int last = buffer.limit() - 1;
        buffer.put(last, (byte) (buffer.get(last) ^ 0x5A));
        assertThat(produceError(MemoryRecords.readableRecords(buffer))).isEqualTo(Errors.CORRUPT_MESSAGE);
    }

    /** Produce v3+ allows one batch per partition, so even a good first batch is not appended. */
    @Test
    void aGoodBatchFollowedByACorruptOneAppendsNeither() throws Exception {
        ByteBuffer good = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(new byte[20])).buffer();
        ByteBuffer bad = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(new byte[20])).buffer();
        bad.put(bad.limit() - 5, (byte) 0x7F); // inside the value: only the CRC can tell
        ByteBuffer both = ByteBuffer.allocate(good.remaining() + bad.remaining()).put(good).put(bad).flip();
        assertThat(produceError(MemoryRecords.readableRecords(both))).isEqualTo(Errors.INVALID_RECORD);
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "snappy", "lz4", "zstd"})
    void compressedBatchesAreAcceptedAndGarbledOnesRejected(String codec) throws Exception {
        Compression compression = Compression.of(codec).build();
        MemoryRecords records = MemoryRecords.withRecords(compression,
                new SimpleRecord("k1".getBytes(), "some value to compress".repeat(20).getBytes()),
                new SimpleRecord("k2".getBytes(), "another value".repeat(20).getBytes()));
        // Garble the compressed payload but keep the batch CRC valid: only decompressing can tell.
        ByteBuffer garbled = ByteBuffer.allocate(records.sizeInBytes()).put(records.buffer().duplicate()).flip();
        for (int i = DefaultRecordBatch.RECORD_BATCH_OVERHEAD + 4; i < garbled.limit(); i += 3) {
            garbled.put(i, (byte) ~garbled.get(i));
        }
        CRC32C crc = new CRC32C();
        crc.update(garbled.array(), CRC_COVERS_FROM, garbled.limit() - CRC_COVERS_FROM);
        garbled.putInt(DefaultRecordBatch.CRC_OFFSET, (int) crc.getValue());

        assertThat(produceError(MemoryRecords.readableRecords(garbled))).isIn(Errors.CORRUPT_MESSAGE, Errors.INVALID_RECORD);
        assertThat(produceError(records)).isEqualTo(Errors.NONE);
        sent += 2;
    }

    private static Errors produceError(MemoryRecords records) throws Exception {
        try (RawConnection raw = connect()) {
            ProduceResponse response = (ProduceResponse) raw.request(ApiKeys.PRODUCE, PRODUCE_VERSION, Requests.produce(TOPIC, (short) 1, records));
            return Errors.forCode(response.data().responses().iterator().next().partitionResponses().get(0).errorCode());
        }
    }

}
