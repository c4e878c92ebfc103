package io.tributary.broker.network;

import static io.tributary.testkit.attack.MalformedFrames.BAD_CRC;
import static io.tributary.testkit.attack.MalformedFrames.CLOSED;
import static io.tributary.testkit.attack.MalformedFrames.TRUNCATED;
import static io.tributary.testkit.attack.MalformedFrames.UNKNOWN_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import io.tributary.broker.testing.TestBroker;
import io.tributary.testkit.attack.GoodTraffic;
import io.tributary.testkit.attack.MalformedFrames;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * 100,000 malformed frames while a producer and consumer run: frames of API keys nobody knows (answered with
 * an error, the connection stays), produce requests to the good topic whose records fail their CRC (answered
 * with an error), and unparseable bodies (the connection is closed; the attacker reconnects). The broker keeps
 * serving, and nothing the attack sent is appended.
 */
@Timeout(300)
class MalformedFramesIT {
    private static final int FRAMES = 100_000;
    private static final int GOOD_RECORDS = 100;

    @Test
    void malformedFramesCostOnlyTheirOwnConnections(@TempDir Path dir) throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of());
             MalformedFrames attack = new MalformedFrames(4, FRAMES, "good")) {
            GoodTraffic.createTopic(broker.bootstrapServers(), "good");
            attack.start("127.0.0.1", broker.port());
            GoodTraffic.Result during = GoodTraffic.start(broker.bootstrapServers(), "good", GOOD_RECORDS, 20)
                    .finish(Duration.ofSeconds(200));
            assertThat(attack.awaitDone(Duration.ofSeconds(200))).isTrue();

            Map<String, Integer> outcomes = attack.outcomes();
            assertThat(outcomes).containsOnlyKeys(TRUNCATED + ": " + CLOSED, BAD_CRC + ": " + Errors.CORRUPT_MESSAGE,
                    UNKNOWN_KEY + ": " + Errors.UNSUPPORTED_VERSION);
            assertThat(outcomes.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(FRAMES);
            assertThat(during.failures()).isEmpty();
            assertThat(during.consumed()).as("nothing the attack sent was appended")
                    .containsExactlyElementsOf(GoodTraffic.expected(GOOD_RECORDS));
        }
    }
}
