/**
 * Client quotas as Kafka applies them: byte rates for produce ({@code producer_byte_rate}) and fetch
 * ({@code consumer_byte_rate}) and a share of request-handler time ({@code request_percentage}), per user and
 * client-id with defaults and overrides, kept in ZooKeeper ({@link io.tributary.broker.cluster.ClientQuotaStore}).
 * {@link ClientQuotas} picks the quota that applies to a client, {@link ClientQuotaManager} measures rates with
 * kafka-clients' metrics ({@code Sensor}, {@code Rate}, {@code Quota}) and turns a violation into a throttle time,
 * and {@link QuotaConfigWatcher} keeps the quotas in step with ZooKeeper. The API layer puts the throttle time in
 * the response and the network layer mutes the connection for that long (KIP-219). Depends on nothing above
 * {@code cluster}.
 */
package io.tributary.broker.quota;
