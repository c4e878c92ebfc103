/**
 * Scaffolding for broker tests, on free loopback ports and temporary directories:
 * {@link io.tributary.broker.testing.TestBroker} (a broker in the test JVM with its own embedded
 * ZooKeeper), {@link io.tributary.broker.testing.BrokerProcess} (a broker in a child JVM, to
 * SIGTERM, SIGKILL and restart), {@link io.tributary.broker.testing.ExternalZooKeeper} (a
 * standalone ZooKeeper JVM), {@link io.tributary.broker.testing.Clients} (kafka-clients with test
 * timeouts), {@link io.tributary.broker.testing.Records} (read a topic back to its end),
 * {@link io.tributary.broker.testing.TcpProxy} (a link a test can cut) and
 * {@link io.tributary.broker.testing.ExternalCommand} (kcat, node).
 * Exact bytes on the wire ({@code RawConnection}, {@code Requests}) and the attacks of the overload tests come
 * from testkit, which the attack harness of benchmarks shares.
 * Everything a test starts here it must close.
 */
package io.tributary.broker.testing;
