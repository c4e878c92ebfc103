package io.tributary.testkit.attack;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts of what an attack met, by kind. Thread-safe. */
final class Outcomes {
    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    void add(String kind) {
        counts.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
    }

    /** A sorted copy. */
    Map<String, Integer> snapshot() {
        Map<String, Integer> copy = new TreeMap<>();
        counts.forEach((kind, count) -> copy.put(kind, count.get()));
        return copy;
    }
}
