package io.tributary.http;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP endpoint on each {@code http.listeners} address (the JDK's HTTP server, one thread for all of them): each
 * path answers GET and HEAD with its {@link Resource}, made afresh for every request; other paths 404, other methods
 * 405. A resource that fails answers 500 with the error's message; the endpoint goes on serving.
 */
public final class HttpEndpoint implements AutoCloseable {
    /** The Prometheus text exposition format, version 0.0.4. */
    public static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    public static final String HTML = "text/html; charset=utf-8";
    private static final Logger log = LoggerFactory.getLogger(HttpEndpoint.class);
    private static final String PLAIN_TEXT = "text/plain; charset=utf-8";

    /** What one path serves: its content type and its body, made when asked. */
    public record Resource(String contentType, Supplier<String> body) {
    }

    private final List<HttpServer> servers;
    private final ExecutorService executor;

    private HttpEndpoint(List<HttpServer> servers, ExecutorService executor) {
        this.servers = servers;
        this.executor = executor;
    }

    /**
     * Binds every address and serves {@code resources} (path to resource, e.g. {@code /metrics}) on each; on a
     * failure the ones already bound are released.
     */
    public static HttpEndpoint start(List<InetSocketAddress> addresses, Map<String, Resource> resources) throws IOException {
        ExecutorService executor = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tributary-http");
            thread.setDaemon(true);
            return thread;
        });
        Map<String, Resource> served = new LinkedHashMap<>(resources);
        HttpEndpoint endpoint = new HttpEndpoint(new ArrayList<>(), executor);
        try {
            for (InetSocketAddress address : addresses) {
                HttpServer http = HttpServer.create(address, 0);
                http.createContext("/", exchange -> answer(exchange, served));
                http.setExecutor(executor);
                http.start();
                endpoint.servers.add(http);
            }
        } catch (IOException | RuntimeException e) {
            endpoint.close();
            throw new IOException("cannot bind http.listeners address: " + e.getMessage(), e);
        }
        return endpoint;
    }

    private static void answer(HttpExchange exchange, Map<String, Resource> resources) throws IOException {
        try (exchange) {
            Resource resource = resources.get(exchange.getRequestURI().getPath());
            if (resource == null) {
                send(exchange, 404, PLAIN_TEXT, "not found: this endpoint serves " + String.join(", ", resources.keySet()) + "\n");
            } else if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, PLAIN_TEXT, "method not allowed\n");
            } else {
                String body;
                try {
                    body = resource.body().get();
                } catch (RuntimeException e) {
                    log.warn("GET {} failed", exchange.getRequestURI().getPath(), e);
                    send(exchange, 500, PLAIN_TEXT, "failed: " + e + "\n");
                    return;
                }
                send(exchange, 200, resource.contentType(), body);
            }
        }
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
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
