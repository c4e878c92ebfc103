package io.tributary.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DuckDB (the {@code @duckdb/node-api} npm package) reading Parquet files through
 * {@code clients/js/parquet-stats.mjs}: a reader that shares no code with ours.
 *
 * @param count           rows in all files
 * @param distinctOffsets distinct (partition, offset) pairs
 * @param columns         column names in order
 * @param types           DuckDB column types in order
 */
record OutsideReader(long count, long distinctOffsets, List<String> columns, List<String> types) {
    private static final Path SCRIPT = Path.of(System.getProperty("user.dir")).resolve("../clients/js/parquet-stats.mjs").normalize();

    /** Reads every data file of {@code topic} under a local dataset root. */
    static OutsideReader readTopic(Path root, String topic) throws IOException, InterruptedException {
        String glob = root.resolve(topic).toString() + "/*/*/*.parquet";
        // To a file, not a pipe: reading a pipe to its end would wait for node without a time limit.
        Path output = Files.createTempFile("outside-reader", ".json");
        try {
            Process node = new ProcessBuilder("node", SCRIPT.toString(), glob).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
            if (!node.waitFor(60, TimeUnit.SECONDS)) {
                node.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("node " + SCRIPT + " did not finish in 60 s: " + Files.readString(output));
            }
            String out = Files.readString(output, StandardCharsets.UTF_8);
            assertThat(node.exitValue()).as("node %s: %s", SCRIPT, out).isZero();
            return parse(out);
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static OutsideReader parse(String out) throws IOException {
        JsonNode json = new ObjectMapper().readTree(out);
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        json.get("columns").forEach(c -> {
            names.add(c.get("name").asText());
            types.add(c.get("type").asText());
        });
        return new OutsideReader(json.get("count").asLong(), json.get("distinctOffsets").asLong(), names, types);
    }
}
