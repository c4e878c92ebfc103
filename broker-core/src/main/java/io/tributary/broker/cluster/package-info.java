/**
 * The broker's view of the cluster, kept in ZooKeeper: its own registration
 * ({@code /brokers/ids/<id>}, ephemeral), topics and their partition assignments
 * ({@code /brokers/topics/<topic>}), topic config overrides ({@code /config/topics/<topic>}),
 * the cluster id and producer-id blocks. Node contents are JSON in Kafka's ZooKeeper-mode shapes.
 *
 * <p>ZooKeeper is only needed to change metadata. {@link io.tributary.broker.cluster.TopicManager}
 * keeps an in-memory copy, so produce and fetch carry on while ZooKeeper is away; Curator
 * reconnects with backoff and the registration is recreated when a new session starts.
 */
package io.tributary.broker.cluster;
