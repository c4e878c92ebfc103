package io.tributary.broker.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Hands out producer ids that are unique across the cluster and across restarts: each broker
 * claims blocks of {@value #BLOCK_SIZE} ids by compare-and-set on
 * {@code /latest_producer_id_block}, then serves ids from its block in memory. Thread-safe.
 */
public final class ProducerIdManager {
    static final String BLOCK_PATH = "/latest_producer_id_block";
    static final long BLOCK_SIZE = 1000;

    private final ZkClient zk;
    private final int brokerId;
    private long next;
    private long end;

    public ProducerIdManager(ZkClient zk, int brokerId) {
        this.zk = zk;
        this.brokerId = brokerId;
    }

    /** @throws org.apache.kafka.common.errors.TimeoutException if a new block is needed and ZooKeeper is away */
    public synchronized long nextId() {
        if (next >= end) {
            claimBlock();
        }
        return next++;
    }

    private void claimBlock() {
        while (true) {
            var current = zk.read(BLOCK_PATH);
            long start = current.map(node -> Json.parse(node.data(), BLOCK_PATH).path("block_end").asLong() + 1).orElse(0L);
            byte[] claim = blockJson(start, start + BLOCK_SIZE - 1);
            boolean claimed = current.isPresent()
                    ? zk.compareAndSet(BLOCK_PATH, claim, current.get().version()).isPresent()
                    : zk.createIfAbsent(BLOCK_PATH, claim);
            if (claimed) {
                next = start;
                end = start + BLOCK_SIZE;
                return;
            }
        }
    }

    private byte[] blockJson(long start, long last) {
        ObjectNode node = Json.object();
        node.put("version", 1);
        node.put("broker", brokerId);
        node.put("block_start", Long.toString(start));
        node.put("block_end", Long.toString(last));
        return Json.bytes(node);
    }
}
