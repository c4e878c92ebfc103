/**
 * Test support shared by every module's integration tests: real servers on free loopback ports.
 * Only ever a test-scope (or benchmarks) dependency; production code never imports it.
 */
package io.tributary.testkit;
