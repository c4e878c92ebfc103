package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.tributary.broker.testing.Clients;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The socket layer seen from the wire: pipelined requests, idle connections, stalled clients. */
class NetworkIT {
    private static TestBroker broker;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir, Map.of("connections.max.idle.ms", "1500"));
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        try (RawConnection raw = new RawConnection("127.0.0.1", broker.port())) {
            List<Integer> sent = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                RequestHeader header = i % 2 == 0
                        ? raw.send(ApiKeys.METADATA, (short) 12, new MetadataRequestData().setTopics(null))
                        : raw.send(ApiKeys.API_VERSIONS, (short) 3, new ApiVersionsRequestData()
                        .setClientSoftwareName("raw").setClientSoftwareVersion("1"));
                sent.add(header.correlationId());
            }
            List<Integer> answered = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                ByteBuffer response = raw.readFrame();
                answered.add(response.getInt());
            }
            assertThat(answered).containsExactlyElementsOf(sent);
        }
    }

    @Test
    void idleConnectionsAreClosed() throws Exception {
        try (RawConnection raw = new RawConnection("127.0.0.1", broker.port())) {
            raw.request(ApiKeys.API_VERSIONS, (short) 0, new ApiVersionsRequestData());
            assertThat(raw.closedByBroker(Duration.ofSeconds(15))).isTrue();
        }
    }

    @Test
    void aClientThatStopsMidFrameDoesNotHoldUpOthers() throws Exception {
        try (RawConnection stalled = new RawConnection("127.0.0.1", broker.port());
             KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers())) {
            stalled.write(ByteBuffer.allocate(6).putInt(1000).putShort((short) 3).array()); // and nothing more
            for (int i = 0; i < 20; i++) {
                producer.send(new ProducerRecord<>("unblocked", new byte[] {(byte) i})).get();
            }
        }
    }
}
