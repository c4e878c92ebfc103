package io.tributary.broker.group;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import io.tributary.broker.testing.Clients;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * A group member in its own JVM, for tests that SIGKILL it: polls forever and prints
 * "assigned &lt;count&gt;" whenever its assignment changes.
 * Arguments: bootstrap servers, group id, topic, session timeout in ms.
 */
public final class GroupMemberMain {
    private GroupMemberMain() {
    }

    public static void main(String[] args) {
        Map<String, Object> settings = Map.of(ConsumerConfig.GROUP_ID_CONFIG, args[1],
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Integer.parseInt(args[3]),
                ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 300);
        try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(args[0], settings)) {
            consumer.subscribe(List.of(args[2]));
            int assigned = -1;
            while (true) {
                consumer.poll(Duration.ofMillis(100));
                if (consumer.assignment().size() != assigned) {
                    assigned = consumer.assignment().size();
                    System.out.println("assigned " + assigned);
                    System.out.flush();
                }
            }
        }
    }
}
