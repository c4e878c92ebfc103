package io.tributary.broker.metrics;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.FetchRequest;

/**
 * {@code tributary_request_latency_seconds{api}}: from a handler thread taking a request to its response being
 * ready, waits in purgatory included (a fetch's max.wait.ms, an acks=all produce's replication); the time in the
 * request queue and on the wire is not. A summary with p50 and p99 over a sliding window, per request name seen: the
 * API's, as in Kafka's RequestMetrics, with Fetch split into {@code FetchConsumer} and {@code FetchFollower}.
 */
public final class RequestLatency {
    static final String NAME = "tributary.request.latency";
    static final String API = "api";
    private final MeterRegistry registry;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    RequestLatency(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Runs {@code call}, which answers {@code request}, and records how long until its future completes, normally or not. */
    public <T> CompletableFuture<T> time(AbstractRequest request, Supplier<CompletableFuture<T>> call) {
        String name = requestName(request);
        Timer timer = timers.get(name);
        if (timer == null) {
            timer = timers.computeIfAbsent(name, key -> Timer.builder(NAME)
                    .description("Time from a handler taking a request to its response being ready")
                    .tag(API, key).publishPercentiles(0.5, 0.99).register(registry));
        }
        Timer.Sample sample = Timer.start(registry);
        Timer recorded = timer;
        CompletableFuture<T> result = call.get();
        result.whenComplete((value, error) -> sample.stop(recorded));
        return result;
    }

    /** Kafka's name of a request in its RequestMetrics: the API's, and for a fetch whether a follower or a consumer sent it. */
    static String requestName(AbstractRequest request) {
        if (request.apiKey() == ApiKeys.FETCH) {
            return ((FetchRequest) request).isFromFollower() ? "FetchFollower" : "FetchConsumer";
        }
        return request.apiKey().name;
    }
}
