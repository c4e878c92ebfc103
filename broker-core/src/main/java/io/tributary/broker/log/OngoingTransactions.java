package io.tributary.broker.log;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The open transactions of one partition: per producer id, the offset of its transaction's first record. The
 * smallest of those is the first unstable offset, below which the last stable offset stays. Not thread-safe: the
 * owning {@link ProducerStateManager}'s lock guards it.
 */
final class OngoingTransactions {
    private final Map<Long, Long> firstOffsetByProducer = new HashMap<>();
    private final TreeMap<Long, Long> producerByFirstOffset = new TreeMap<>();

    /** A transactional batch at {@code firstOffset}: opens the producer's transaction unless it is open already. */
    void begin(long producerId, long firstOffset) {
        if (firstOffsetByProducer.putIfAbsent(producerId, firstOffset) == null) {
            producerByFirstOffset.put(firstOffset, producerId);
        }
    }

    /** A marker: closes the producer's transaction. @return its first offset, or -1 if none was open */
    long end(long producerId) {
        Long first = firstOffsetByProducer.remove(producerId);
        if (first == null) {
            return -1;
        }
        producerByFirstOffset.remove(first);
        return first;
    }

    boolean isOpen(long producerId) {
        return firstOffsetByProducer.containsKey(producerId);
    }

    /** The first offset of the oldest open transaction, or -1 if none is open. */
    long firstUnstableOffset() {
        return producerByFirstOffset.isEmpty() ? -1 : producerByFirstOffset.firstKey();
    }

    /** The open transactions that began below {@code offset}, by producer id. */
    Map<Long, Long> beganBelow(long offset) {
        Map<Long, Long> below = new HashMap<>();
        producerByFirstOffset.headMap(offset, false).forEach((first, producer) -> below.put(producer, first));
        return below;
    }

    /** Every open transaction, by producer id. */
    Map<Long, Long> all() {
        return Map.copyOf(firstOffsetByProducer);
    }

    void clear() {
        firstOffsetByProducer.clear();
        producerByFirstOffset.clear();
    }
}
