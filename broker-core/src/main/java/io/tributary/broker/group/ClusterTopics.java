package io.tributary.broker.group;

import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.cluster.TopicManager.TopicState;
import io.tributary.broker.group.consumer.SubscribableTopics;
import java.util.Collection;
import java.util.Optional;
import org.apache.kafka.common.Uuid;

/** The cluster's topics (this broker's {@link TopicManager} cache) as consumer groups subscribe to them. */
public final class ClusterTopics implements SubscribableTopics {
    private final TopicManager topics;

    public ClusterTopics(TopicManager topics) {
        this.topics = topics;
    }

    @Override
    public Optional<Topic> byName(String name) {
        return topics.topic(name).map(ClusterTopics::of);
    }

    @Override
    public Optional<Topic> byId(Uuid id) {
        return topics.topic(id).map(ClusterTopics::of);
    }

    @Override
    public Collection<Topic> all() {
        return topics.topics().stream().map(ClusterTopics::of).toList();
    }

    private static Topic of(TopicState state) {
        return new Topic(state.name(), state.id(), state.partitionCount());
    }
}
