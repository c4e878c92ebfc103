package io.tributary.broker.cluster;

/**
 * Told by {@link TopicManager} when a topic's partitions appear, grow or go, on whichever thread
 * made the change (a request handler for a local change, the cluster event thread for one seen
 * in ZooKeeper). The replica manager uses it to take up or drop its replicas.
 */
public interface TopicListener {
    /** The topic was created, grew or was loaded; its logs on this broker exist. */
    void topicChanged(TopicManager.TopicState topic);

    /** The topic is being deleted; called before its logs on this broker are. */
    void topicDeleted(TopicManager.TopicState topic);
}
