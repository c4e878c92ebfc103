package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import io.tributary.broker.testing.Clients;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads a group's committed offsets every 50 ms with an admin client, on a thread of its own, and records every
 * partition whose committed offset went back.
 */
final class CommittedOffsetsWatch implements AutoCloseable {
    private final Admin admin;
    private final String group;
    private final Map<TopicPartition, Long> highest = new HashMap<>();
    private final List<String> wentBack = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile int reads;

    CommittedOffsetsWatch(String bootstrap, String group) {
        this.admin = Clients.admin(bootstrap);
        this.group = group;
        this.thread = new Thread(this::watch, "committed-offsets-" + group);
        thread.start();
    }

    private void watch() {
        try {
            while (running) {
                read();
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void read() throws InterruptedException {
        Map<TopicPartition, OffsetAndMetadata> committed;
        try {
            committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
        } catch (ExecutionException e) {
            return; // the coordinator is busy or moving: read again
        }
        synchronized (this) {
            committed.forEach((partition, offset) -> {
                if (offset == null) {
                    return;
                }
                Long before = highest.put(partition, offset.offset());
                if (before != null && offset.offset() < before) {
                    wentBack.add(partition + " from " + before + " to " + offset.offset());
                    highest.put(partition, before);
                }
            });
            reads++;
        }
    }

    /** Every committed offset that went back, as "partition from x to y". */
    synchronized List<String> wentBack() {
        return List.copyOf(wentBack);
    }

    /** How many times the offsets were read. */
    int reads() {
        return reads;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(10_000);
        admin.close();
    }
}
