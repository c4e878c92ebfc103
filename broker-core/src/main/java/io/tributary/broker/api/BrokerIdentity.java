package io.tributary.broker.api;

/** Who this broker is, as the APIs report it: node id, advertised endpoint and cluster id. */
public record BrokerIdentity(int nodeId, String host, int port, String clusterId) {
}
