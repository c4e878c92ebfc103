package io.tributary.consumer.cli;

import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.List;

/**
 * Partitions and replica lists as the replica commands take them: {@code TOPIC:PARTITION} and
 * {@code TOPIC:PARTITION=BROKER,BROKER,...} (a colon never occurs in a topic name).
 */
final class PartitionSpec {
    private PartitionSpec() {
    }

    /** A partition and the replicas it is to have, the first preferred as leader. */
    record Target(TopicPartition partition, List<Integer> replicas) {
    }

    static TopicPartition partition(String spec) {
        int colon = spec.lastIndexOf(':');
        if (colon <= 0 || colon == spec.length() - 1) {
            throw new CliException("not TOPIC:PARTITION: '" + spec + "'");
        }
        try {
            int partition = Integer.parseInt(spec.substring(colon + 1));
            if (partition < 0) {
                throw new NumberFormatException();
            }
            return new TopicPartition(spec.substring(0, colon), partition);
        } catch (NumberFormatException e) {
            throw new CliException("not a partition number in '" + spec + "'");
        }
    }

    static Target target(String spec) {
        int equals = spec.indexOf('=');
        if (equals < 0) {
            throw new CliException("not TOPIC:PARTITION=BROKER,BROKER,...: '" + spec + "'");
        }
        List<Integer> replicas = new ArrayList<>();
        for (String id : spec.substring(equals + 1).split(",")) {
            try {
                int broker = Integer.parseInt(id.strip());
                if (replicas.contains(broker)) {
                    throw new CliException("broker " + broker + " named twice in '" + spec + "'");
                }
                replicas.add(broker);
            } catch (NumberFormatException e) {
                throw new CliException("not a broker id: '" + id + "' in '" + spec + "'");
            }
        }
        return new Target(partition(spec.substring(0, equals)), List.copyOf(replicas));
    }

    static String format(TopicPartition partition) {
        return partition.topic() + ":" + partition.partition();
    }
}
