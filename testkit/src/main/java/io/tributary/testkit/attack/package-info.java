/**
 * Attacks on a broker ({@link io.tributary.testkit.attack.Attack}) and the well-behaved clients that run beside
 * them ({@link io.tributary.testkit.attack.GoodTraffic}). broker-core's overload tests use them to check what
 * Tributary does; the attack harness of benchmarks ({@code benchmarks/attacks}) uses the same ones to measure
 * Tributary and Apache Kafka side by side.
 */
package io.tributary.testkit.attack;
