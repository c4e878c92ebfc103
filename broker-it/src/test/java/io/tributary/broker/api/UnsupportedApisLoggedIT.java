package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import io.tributary.broker.network.Processor;
import io.tributary.broker.testing.CapturedLog;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Every request to an API or version we do not serve leaves a warning naming the client: its id and its address. */
@Timeout(60)
class UnsupportedApisLoggedIT {
    private static TestBroker broker;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir);
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    /** A client API kafka-clients can write that this broker does not implement (which one changes as APIs arrive). */
    private static ApiKeys anUnimplementedApi() {
        return Arrays.stream(ApiKeys.values())
                .filter(key -> key.inScope(ApiMessageType.ListenerType.BROKER) && SupportedApis.range(key).isEmpty())
                .findFirst().orElseThrow();
    }

    @Test
    void aKnownApiWeDoNotImplementIsLoggedWithTheClientIdAndAddress() throws Exception {
        ApiKeys unimplemented = anUnimplementedApi();
        try (CapturedLog log = CapturedLog.of(RequestDispatcher.class);
             RawConnection raw = RawConnection.to(broker.bootstrapServers())) {
            raw.request(unimplemented, unimplemented.latestVersion(), ApiMessageType.fromApiKey(unimplemented.id).newRequest());
            Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(log.lines()).anySatisfy(line ->
                    assertThat(line.message()).contains(unimplemented.toString(), "raw-test", "127.0.0.1", "not supported")));
        }
    }

    @Test
    void anApiKeyOrVersionUnknownToTheCodecIsLoggedWithTheClientIdAndAddress() throws Exception {
        byte[] clientId = "client-from-the-future".getBytes(StandardCharsets.UTF_8);
        try (CapturedLog log = CapturedLog.of(Processor.class);
             RawConnection raw = RawConnection.to(broker.bootstrapServers())) {
            raw.writeFrame(ByteBuffer.allocate(10 + clientId.length).putShort((short) 999).putShort((short) 0).putInt(3)
                    .putShort((short) clientId.length).put(clientId).flip());
            assertThat(raw.readFrame().getShort(4)).isEqualTo(Errors.UNSUPPORTED_VERSION.code());
            raw.writeFrame(ByteBuffer.allocate(10 + clientId.length).putShort(ApiKeys.PRODUCE.id).putShort((short) 99).putInt(4)
                    .putShort((short) clientId.length).put(clientId).flip());
            assertThat(raw.readFrame().getShort(4)).isEqualTo(Errors.UNSUPPORTED_VERSION.code());
            Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(log.lines()).anySatisfy(line -> assertThat(line.message())
                        .contains("api key 999 v0", "client-from-the-future", "127.0.0.1"));
                assertThat(log.lines()).anySatisfy(line -> assertThat(line.message())
                        .contains("PRODUCE v99", "client-from-the-future", "127.0.0.1"));
            });
        }
    }
}
