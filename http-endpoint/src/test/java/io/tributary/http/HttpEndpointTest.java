package io.tributary.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class HttpEndpointTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void servesEachPathFreshAndRefusesTheRest() throws Exception {
        AtomicInteger scrapes = new AtomicInteger();
        try (HttpEndpoint endpoint = HttpEndpoint.start(List.of(new InetSocketAddress("127.0.0.1", 0)), Map.of(
                "/metrics", new HttpEndpoint.Resource(HttpEndpoint.PROMETHEUS_TEXT, () -> "up " + scrapes.incrementAndGet() + "\n"),
                "/", new HttpEndpoint.Resource(HttpEndpoint.HTML, () -> {
                    throw new IllegalStateException("no cluster view yet");
                })))) {
            String base = "http://127.0.0.1:" + endpoint.addresses().get(0).getPort();
            assertThat(endpoint.addresses().get(0).getPort()).isPositive();

            HttpResponse<String> first = get(base + "/metrics", "GET");
            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(first.body()).isEqualTo("up 1\n");
            assertThat(first.headers().firstValue("Content-Type")).hasValue(HttpEndpoint.PROMETHEUS_TEXT);
            assertThat(get(base + "/metrics", "GET").body()).isEqualTo("up 2\n");

            HttpResponse<String> head = get(base + "/metrics", "HEAD");
            assertThat(head.statusCode()).isEqualTo(200);
            assertThat(head.body()).isEmpty();

            HttpResponse<String> failing = get(base + "/", "GET");
            assertThat(failing.statusCode()).isEqualTo(500);
            assertThat(failing.body()).contains("no cluster view yet");

            HttpResponse<String> missing = get(base + "/nothing", "GET");
            assertThat(missing.statusCode()).isEqualTo(404);
            assertThat(missing.body()).contains("/metrics");

            HttpResponse<String> post = get(base + "/metrics", "POST");
            assertThat(post.statusCode()).isEqualTo(405);
            assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
            assertThat(get(base + "/metrics", "GET").statusCode()).as("still serving after the failures").isEqualTo(200);
        }
    }

    private static HttpResponse<String> get(String url, String method) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }
}
