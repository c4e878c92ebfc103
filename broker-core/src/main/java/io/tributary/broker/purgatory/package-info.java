/**
 * Requests that wait for something to happen, without a thread per waiter and without polling:
 * a waiting operation is parked under the keys it depends on (partitions), re-checked only when
 * one of those keys changes, and completed by a timer when its deadline passes — whichever
 * comes first, exactly once.
 */
package io.tributary.broker.purgatory;
