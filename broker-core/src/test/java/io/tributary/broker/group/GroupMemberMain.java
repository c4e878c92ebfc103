package io.tributary.broker.group;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.tributary.broker.testing.Clients;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * A group member in its own JVM, for tests that SIGKILL it: polls forever, prints
 * "consumed &lt;partition&gt; &lt;offset&gt;" for every record before it commits the batch, and
 * "assigned &lt;count&gt;" whenever its assignment changes.
 * Arguments: bootstrap servers, group id, topic, session timeout in ms (classic protocol) or
 * "consumer" (the KIP-848 protocol, whose session the broker sets).
 */
public final class GroupMemberMain {
    private GroupMemberMain() {
    }

    public static void main(String[] args) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, args[1]);
        if (args[3].equals("consumer")) {
            settings.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
        } else {
            settings.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Integer.parseInt(args[3]));
            settings.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 300);
        }
        try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(args[0], settings)) {
            consumer.subscribe(List.of(args[2]));
            int assigned = -1;
            while (true) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    System.out.println("consumed " + record.partition() + " " + record.offset());
                }
                System.out.flush();
                if (!records.isEmpty()) {
                    consumer.commitSync();
                }
                if (consumer.assignment().size() != assigned) {
                    assigned = consumer.assignment().size();
                    System.out.println("assigned " + assigned);
                    System.out.flush();
                }
            }
        }
    }
}
