package io.tributary.broker.group.consumer;

import java.util.Collection;
import java.util.Optional;
import org.apache.kafka.common.Uuid;

/** The topics of the cluster as a consumer group sees them: by name, by id, and all of them (for regexes). */
public interface SubscribableTopics {
    /** A topic: its name, id and partition count. */
    record Topic(String name, Uuid id, int partitionCount) {
    }

    Optional<Topic> byName(String name);

    Optional<Topic> byId(Uuid id);

    Collection<Topic> all();
}
