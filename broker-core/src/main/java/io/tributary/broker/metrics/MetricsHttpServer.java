package io.tributary.broker.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The broker's HTTP endpoint on each {@code http.listeners} address (the JDK's HTTP server, one thread):
 * {@code GET /metrics} answers the registry in the Prometheus text format; other paths 404, other methods 405.
 */
public final class MetricsHttpServer implements AutoCloseable {
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final List<HttpServer> servers;
    private final ExecutorService executor;

    private MetricsHttpServer(List<HttpServer> servers, ExecutorService executor) {
        this.servers = servers;
        this.executor = executor;
    }

    /** Binds every address; on a failure the ones already bound are released. */
    public static MetricsHttpServer start(List<InetSocketAddress> addresses, PrometheusMeterRegistry registry) throws IOException {
        ExecutorService executor = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tributary-http");
            thread.setDaemon(true);
            return thread;
        });
        MetricsHttpServer server = new MetricsHttpServer(new ArrayList<>(), executor);
        try {
            for (InetSocketAddress address : addresses) {
                HttpServer http = HttpServer.create(address, 0);
                http.createContext("/", exchange -> answer(exchange, registry));
                http.setExecutor(executor);
                http.start();
                server.servers.add(http);
            }
        } catch (IOException | RuntimeException e) {
            server.close();
            throw new IOException("cannot bind http.listeners address: " + e.getMessage(), e);
        }
        return server;
    }

    private static void answer(HttpExchange exchange, PrometheusMeterRegistry registry) throws IOException {
        try (exchange) {
            if (!exchange.getRequestURI().getPath().equals("/metrics")) {
                send(exchange, 404, "text/plain; charset=utf-8", "not found: only GET /metrics is served\n");
            } else if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, "text/plain; charset=utf-8", "method not allowed\n");
            } else {
                send(exchange, 200, PROMETHEUS_TEXT, registry.scrape());
            }
        }
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** The bound addresses, in the order of {@code http.listeners} (real ports for port 0). */
    public List<InetSocketAddress> addresses() {
        return servers.stream().map(HttpServer::getAddress).toList();
    }

    @Override
    public void close() {
        servers.forEach(server -> server.stop(0));
        executor.shutdownNow();
    }
}
