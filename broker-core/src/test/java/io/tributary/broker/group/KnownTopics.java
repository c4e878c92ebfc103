package io.tributary.broker.group;

import io.tributary.broker.group.consumer.SubscribableTopics;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.Uuid;

/** Topics for coordinator tests: created and grown by the test. */
final class KnownTopics implements SubscribableTopics {
    private final Map<String, Topic> topics = new ConcurrentHashMap<>();

    Topic create(String name, int partitions) {
        Topic topic = new Topic(name, Uuid.randomUuid(), partitions);
        topics.put(name, topic);
        return topic;
    }

    Topic grow(String name, int partitions) {
        Topic grown = new Topic(name, topics.get(name).id(), partitions);
        topics.put(name, grown);
        return grown;
    }

    @Override
    public Optional<Topic> byName(String name) {
        return Optional.ofNullable(topics.get(name));
    }

    @Override
    public Optional<Topic> byId(Uuid id) {
        return topics.values().stream().filter(t -> t.id().equals(id)).findFirst();
    }

    @Override
    public Collection<Topic> all() {
        return List.copyOf(topics.values());
    }
}
