/**
 * Client quotas as Kafka applies them: byte rates for produce ({@code producer_byte_rate}) and fetch
 * ({@code consumer_byte_rate}) and a share of request handler and network thread time ({@code request_percentage}),
 * per user and client-id with defaults and overrides, and connection creation rates (KIP-612: the broker-wide and
 * per-listener {@code max.connection.creation.rate}, the {@code ip} entities' {@code connection_creation_rate}), kept
 * in ZooKeeper ({@link io.tributary.broker.cluster.ClientQuotaStore}). {@link ClientQuotas} picks the quota that
 * applies to a client, {@link ClientQuotaManager} measures rates with kafka-clients' metrics ({@code Sensor},
 * {@code Rate}, {@code Quota}) and turns a violation into a throttle time, {@link ConnectionRateQuotas} does the same
 * for new connections, {@link QuotaMeters} shows those metrics on GET /metrics, and {@link QuotaConfigWatcher} keeps
 * the quotas in step with ZooKeeper. The API layer puts the throttle time in the response and the network layer mutes
 * the connection for that long (KIP-219); the acceptor asks {@code ConnectionRates} before it takes a connection.
 * Depends on nothing above {@code cluster} but the network layer's {@code ConnectionRates} hook.
 */
package io.tributary.broker.quota;
