package io.tributary.compat.connect;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Sends {@code record-<n>} keyed {@code key-<n>}, {@value #BATCH} at a time. Its source offset is the next number,
 * so a task that restarts goes on where the last committed offset says.
 */
public final class CountingSourceTask extends SourceTask {
    private static final Map<String, String> SOURCE = Map.of("source", "counter");
    private static final String NEXT = "next";
    private static final int BATCH = 50;

    private final CountDownLatch stopped = new CountDownLatch(1);
    private String topic;
    private int records;
    private long next;

    @Override
    public void start(Map<String, String> props) {
        AbstractConfig config = new AbstractConfig(CountingSourceConnector.CONFIG, props);
        topic = config.getString(CountingSourceConnector.TOPIC);
        records = config.getInt(CountingSourceConnector.RECORDS);
        Map<String, Object> committed = context.offsetStorageReader().offset(SOURCE);
        next = committed == null ? 0 : ((Number) committed.get(NEXT)).longValue();
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        if (next >= records) {
            // Nothing left: wait a little (or until stopped) instead of spinning in the worker's poll loop.
            stopped.await(100, TimeUnit.MILLISECONDS);
            return null;
        }
        List<SourceRecord> batch = new ArrayList<>();
        for (; next < records && batch.size() < BATCH; next++) {
            batch.add(new SourceRecord(SOURCE, Map.of(NEXT, next + 1), topic, null,
                    Schema.STRING_SCHEMA, "key-" + next, Schema.STRING_SCHEMA, "record-" + next));
        }
        return batch;
    }

    @Override
    public void stop() {
        stopped.countDown();
    }

    @Override
    public String version() {
        return "1";
    }
}
