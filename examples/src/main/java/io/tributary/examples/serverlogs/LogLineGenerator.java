package io.tributary.examples.serverlogs;

import java.time.Instant;
import java.util.List;
import java.util.Random;

/**
 * Synthetic web-server access-log lines, one host per line:
 * <pre>2026-11-30T08:00:01.123Z host-03 ERROR GET /checkout 502 1234ms upstream timed out</pre>
 * Each host fails at its own rate (host-01 rarely, the last host most often), so the per-host
 * error counts differ. Seeded, so two runs write the same lines. Not thread-safe.
 */
public final class LogLineGenerator {
    private static final List<String> PATHS = List.of("/", "/products", "/products/tea", "/search", "/cart",
        "/checkout", "/api/orders", "/api/stock", "/login");
    private static final List<String> METHODS = List.of("GET", "GET", "GET", "POST");

    private final Random random;
    private final int hosts;

    public LogLineGenerator(long seed, int hosts) {
        if (hosts < 1) {
            throw new IllegalArgumentException("need at least one host, got " + hosts);
        }
        this.random = new Random(seed);
        this.hosts = hosts;
    }

    public String next(long timestampMs) {
        int host = random.nextInt(hosts);
        String path = PATHS.get(random.nextInt(PATHS.size()));
        String method = METHODS.get(random.nextInt(METHODS.size()));
        double errorRate = 0.01 + 0.04 * host; // host-01 1 %, host-02 5 %, ...
        double roll = random.nextDouble();
        int status;
        String level;
        String message;
        long latency;
        if (roll < errorRate) {
            status = random.nextBoolean() ? 500 : 502;
            level = "ERROR";
            message = status == 502 ? "upstream timed out" : "unhandled exception in handler";
            latency = 1000 + random.nextInt(4000);
        } else if (roll < errorRate + 0.05) {
            status = 404;
            level = "WARN";
            message = "not found";
            latency = 2 + random.nextInt(20);
        } else {
            status = 200;
            level = "INFO";
            message = "ok";
            latency = 5 + random.nextInt(200);
        }
        return String.format("%s host-%02d %s %s %s %d %dms %s", Instant.ofEpochMilli(timestampMs), host + 1, level,
            method, path, status, latency, message);
    }
}
