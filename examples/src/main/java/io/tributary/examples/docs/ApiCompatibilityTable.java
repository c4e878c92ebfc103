package io.tributary.examples.docs;

import io.tributary.broker.api.Features;
import io.tributary.broker.api.SupportedApis;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.protocol.ApiKeys;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Renders the compatibility table of docs/operations.md from the broker's own ApiVersions answer
 * ({@link SupportedApis#asApiVersions()}) and its {@link Features}: every API a Kafka 4.4 broker serves to clients
 * and brokers, with the versions Apache Kafka 4.4 knows and the versions Tributary answers.
 *
 * <pre>examples/run api-table docs/operations.md            rewrite the generated part
 * examples/run api-table docs/operations.md --check    exit 1 if it is stale</pre>
 */
public final class ApiCompatibilityTable {
    static final GeneratedSection SECTION = new GeneratedSection("API TABLE", "api-table", ApiCompatibilityTable::render);

    private ApiCompatibilityTable() {
    }

    public static void main(String[] args) throws IOException {
        SECTION.main(args);
    }

    /** The generated markdown: one row per API in key order, then the feature flags. */
    static String render() {
        Map<Short, ApiVersion> advertised = SupportedApis.asApiVersions().stream()
            .collect(Collectors.toMap(ApiVersion::apiKey, Function.identity()));
        StringBuilder md = new StringBuilder("\n| API | key | Apache Kafka 4.4 | Tributary |\n|---|---|---|---|\n");
        Arrays.stream(ApiKeys.values())
            .filter(key -> key.inScope(ApiMessageType.ListenerType.BROKER))
            .sorted(Comparator.comparingInt(key -> key.id))
            .forEach(key -> {
                ApiVersion ours = advertised.get(key.id);
                md.append("| ").append(key.name).append(" | ").append(key.id).append(" | ")
                    .append(range(key.oldestVersion(), key.latestVersion())).append(" | ")
                    .append(ours == null ? "not supported" : range(ours.minVersion(), ours.maxVersion())).append(" |\n");
            });
        md.append("\n| feature (ApiVersions) | supported levels | finalized level |\n|---|---|---|\n");
        for (Features.Feature feature : Features.all()) {
            md.append("| `").append(feature.name()).append("` | ").append(feature.level() == 0 ? "0" : "0–" + feature.level()).append(" | ")
                .append(feature.level() == 0 ? "none (0: off)" : feature.level()).append(" |\n");
        }
        return md.append('\n').toString();
    }

    private static String range(short min, short max) {
        return min == max ? "v" + min : "v" + min + "–v" + max;
    }
}
