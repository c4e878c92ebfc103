package io.tributary.examples.pageviews;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * The live half of the page-views example: a realtime-consumer handler that counts views per URL
 * as they arrive. Called concurrently from the consumer's workers; reads are safe from any thread.
 */
public final class LiveUrlCounts {
    private final Map<String, LongAdder> byUrl = new ConcurrentHashMap<>();
    private final LongAdder total = new LongAdder();

    /** The {@code RecordHandler}: a value that is not a page view fails the record (retried, then the policy). */
    public void handle(ConsumerRecord<String, String> record) {
        PageView view = PageView.fromJson(record.value());
        byUrl.computeIfAbsent(view.url(), url -> new LongAdder()).increment();
        total.increment();
    }

    public long total() {
        return total.sum();
    }

    /** Views per URL, most viewed first. */
    public Map<String, Long> byUrl() {
        return byUrl.entrySet().stream()
            .map(e -> Map.entry(e.getKey(), e.getValue().sum()))
            .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()))
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
    }

    /** One console line: the total and the {@code top} most viewed URLs. */
    public String line(int top) {
        String urls = byUrl().entrySet().stream().limit(top)
            .map(e -> e.getKey() + " " + e.getValue())
            .collect(Collectors.joining("  "));
        return String.format("%,8d views | %s", total(), urls);
    }
}
