package io.tributary.broker.metrics;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * {@code tributary_request_latency_seconds{api}}: from a handler thread taking a request to its response being
 * ready, waits in purgatory included (a fetch's max.wait.ms, an acks=all produce's replication); the time in the
 * request queue and on the wire is not. A summary with p50 and p99 over a sliding window, per API seen.
 */
public final class RequestLatency {
    static final String NAME = "tributary.request.latency";
    static final String API = "api";
    private final MeterRegistry registry;
    private final Map<ApiKeys, Timer> timers = new ConcurrentHashMap<>();

    RequestLatency(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Runs {@code call} and records how long until its future completes, normally or not. */
    public <T> CompletableFuture<T> time(ApiKeys api, Supplier<CompletableFuture<T>> call) {
        Timer timer = timers.get(api);
        if (timer == null) {
            timer = timers.computeIfAbsent(api, key -> Timer.builder(NAME)
                    .description("Time from a handler taking a request to its response being ready")
                    .tag(API, key.name).publishPercentiles(0.5, 0.99).register(registry));
        }
        Timer.Sample sample = Timer.start(registry);
        Timer recorded = timer;
        CompletableFuture<T> result = call.get();
        result.whenComplete((value, error) -> sample.stop(recorded));
        return result;
    }
}
