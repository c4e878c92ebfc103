package io.tributary.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code GET /metrics} of a Tributary HTTP endpoint, read with the Prometheus client library's own text parser (the
 * Python client's, as Prometheus users run it: Debian's {@code python3-prometheus-client}, which .ci/run installs).
 * A response that is not 200, not text/plain, or that the parser refuses fails the scrape.
 */
public final class PrometheusScrape {
    /** One parsed sample. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final String PYTHON = "/usr/bin/python3";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final List<Sample> samples;

    private PrometheusScrape(List<Sample> samples) {
        this.samples = samples;
    }

    /** Scrapes {@code baseUrl + "/metrics"}. */
    public static PrometheusScrape of(String baseUrl) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + "/metrics"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (response.statusCode() != 200 || !type.startsWith("text/plain")) {
            throw new IOException("GET /metrics answered " + response.statusCode() + " (" + type + "): " + response.body());
        }
        return new PrometheusScrape(parse(response.body()));
    }

    private static List<Sample> parse(String exposition) throws IOException, InterruptedException {
        String parser;
        try (InputStream in = PrometheusScrape.class.getResourceAsStream("parse_prometheus.py")) {
            parser = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Path input = Files.createTempFile("metrics", ".txt");
        try {
            Files.writeString(input, exposition, StandardCharsets.UTF_8);
            Process process = new ProcessBuilder(PYTHON, "-c", parser).redirectInput(input.toFile()).start();
            byte[] out = process.getInputStream().readAllBytes();
            String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IOException("the Prometheus parser refused the exposition: " + err);
            }
            List<Sample> samples = new ArrayList<>();
            for (String line : new String(out, StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node = JSON.readTree(line);
                Map<String, String> labels = new HashMap<>();
                node.path("labels").fields().forEachRemaining(label -> labels.put(label.getKey(), label.getValue().asText()));
                samples.add(new Sample(node.path("name").asText(), labels, node.path("value").asDouble()));
            }
            return samples;
        } finally {
            Files.deleteIfExists(input);
        }
    }

    public List<Sample> samples() {
        return samples;
    }

    /** The value of the first sample {@code name} that has all of {@code labels}. */
    public Optional<Double> value(String name, Map<String, String> labels) {
        return samples.stream().filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
                .map(Sample::value).findFirst();
    }

    /** The value of the sample {@code name} without labels to match. */
    public Optional<Double> value(String name) {
        return value(name, Map.of());
    }
}
