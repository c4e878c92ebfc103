package io.tributary.broker.metrics;

import java.util.Optional;
import io.micrometer.core.instrument.Meter;

/**
 * The JMX name under which Kafka publishes the meter a Micrometer meter of ours stands for, so that JMX exporters and
 * dashboards made for Kafka read ours unchanged. Meters without a Kafka counterpart have none and stay out of JMX.
 * The "all topics" BrokerTopicMetrics are meters of their own ({@link BrokerMetrics} registers them in JMX only),
 * named here like the per-topic ones without their {@code topic} tag.
 */
final class KafkaJmxNames {
    private KafkaJmxNames() {
    }

    static Optional<String> of(Meter.Id id) {
        String name = switch (id.getName()) {
            case BrokerMetrics.MESSAGES_IN -> "kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec" + topicOf(id);
            case BrokerMetrics.BYTES_IN -> "kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec" + topicOf(id);
            case BrokerMetrics.BYTES_OUT -> "kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec" + topicOf(id);
            case BrokerMetrics.UNDER_REPLICATED -> "kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions";
            case BrokerMetrics.ISR_SHRINKS -> "kafka.server:type=ReplicaManager,name=IsrShrinksPerSec";
            case BrokerMetrics.ISR_EXPANDS -> "kafka.server:type=ReplicaManager,name=IsrExpandsPerSec";
            case BrokerMetrics.OFFLINE -> "kafka.controller:type=KafkaController,name=OfflinePartitionsCount";
            case BrokerMetrics.CONTROLLER_ACTIVE -> "kafka.controller:type=KafkaController,name=ActiveControllerCount";
            case BrokerMetrics.REQUEST_QUEUE_SIZE -> "kafka.network:type=RequestChannel,name=RequestQueueSize";
            case BrokerMetrics.NETWORK_IDLE -> "kafka.network:type=SocketServer,name=NetworkProcessorAvgIdlePercent";
            case BrokerMetrics.LOG_FLUSH -> "kafka.log:type=LogFlushStats,name=LogFlushRateAndTimeMs";
            case RequestLatency.NAME -> "kafka.network:type=RequestMetrics,name=TotalTimeMs,request=" + id.getTag(RequestLatency.API);
            default -> null;
        };
        return Optional.ofNullable(name);
    }

    static boolean has(Meter.Id id) {
        return of(id).isPresent();
    }

    private static String topicOf(Meter.Id id) {
        String topic = id.getTag(BrokerMetrics.TOPIC);
        return topic == null ? "" : ",topic=" + topic; // topic names never hold the characters ObjectName quotes
    }
}
