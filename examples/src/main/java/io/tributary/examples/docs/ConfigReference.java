package io.tributary.examples.docs;

import io.tributary.broker.BrokerConfig;
import io.tributary.broker.log.LogConfig;
import io.tributary.hadoop.loader.LoaderConfig;
import io.tributary.sink.SinkConfig;
import org.apache.kafka.common.config.ConfigDef;

import java.io.IOException;
import java.util.Comparator;
import java.util.List;

/**
 * Renders the configuration reference of docs/operations.md from the {@link ConfigDef} schemas
 * (the broker's, the topic overrides', the sink's, the loader's), so the docs cannot drift from the code. The
 * generated part sits between {@link #BEGIN} and {@link #END}; everything else is hand-written.
 *
 * <pre>examples/run config-reference docs/operations.md            rewrite the generated part
 * examples/run config-reference docs/operations.md --check    exit 1 if it is stale</pre>
 */
public final class ConfigReference {
    static final GeneratedSection SECTION = new GeneratedSection("CONFIG REFERENCE", "config-reference",
        ConfigReference::render);
    static final String BEGIN = SECTION.begin();
    static final String END = SECTION.end();

    /** One table of the reference: a heading, a sentence on where the keys go, and the schema. */
    record Section(String heading, String intro, ConfigDef definition) {
    }

    static List<Section> sections() {
        return List.of(
            new Section("Broker (`config/server.properties`)",
                "Read by `bin/tributary-server`; any key can also be given as `--override key=value`. The `log.*` keys "
                    + "are the defaults of every topic.", BrokerConfig.configDef()),
            new Section("Topic overrides",
                "Set per topic with `bin/tributary topics create|alter <topic> --config key=value`; they override the "
                    + "broker's `log.*` defaults for that topic only.", LogConfig.topicConfigDef()),
            new Section("Sink (`config/sink.properties`)",
                "Read by `bin/tributary-sink`. Keys starting with `consumer.`, `producer.` or `hadoop.` are passed, "
                    + "prefix removed, to the Kafka consumer, the dead-letter producer and the Hadoop `Configuration`. "
                    + "kafka-clients' security keys (`security.protocol`, `ssl.*`, `sasl.*`) without a prefix go to the "
                    + "consumer and the producer both. "
                    + "The consumer reads committed records only (`isolation.level=read_committed`) unless "
                    + "`consumer.isolation.level=read_uncommitted` is set.",
                SinkConfig.DEFINITION),
            new Section("Loader and InputFormats (`-D tributary.*`)",
                "Job settings of `bin/tributary-loader` (given as `-D key=value`; its options set the common ones) and of "
                    + "`TopicInputFormat` in jobs of your own. Keys starting with `tributary.consumer.` are passed, prefix "
                    + "removed, to the Kafka consumers (the loader's `--command-config FILE` sets one for each key of the "
                    + "file). They read committed records only (`isolation.level=read_committed`, "
                    + "planning up to the last stable offset) unless `tributary.consumer.isolation.level=read_uncommitted` "
                    + "is set.", LoaderConfig.DEFINITION));
    }

    public static void main(String[] args) throws IOException {
        SECTION.main(args);
    }

    /**
     * {@code document} with the text between the markers replaced by {@link #render()}.
     *
     * @throws IllegalArgumentException if the markers are missing or out of order
     */
    static String withGeneratedSection(String document) {
        return SECTION.replaceIn(document);
    }

    /** The generated markdown: one table per section, keys in name order. */
    static String render() {
        StringBuilder md = new StringBuilder();
        for (Section section : sections()) {
            md.append("\n### ").append(section.heading()).append("\n\n").append(section.intro()).append("\n\n")
                .append("| key | type | default | valid values | importance | description |\n")
                .append("|---|---|---|---|---|---|\n");
            section.definition().configKeys().values().stream()
                .sorted(Comparator.comparing(key -> key.name))
                .forEach(key -> md.append("| `").append(key.name).append("` | ")
                    .append(key.type.toString().toLowerCase()).append(" | ")
                    .append(defaultValue(key)).append(" | ")
                    .append(validValues(key)).append(" | ")
                    .append(key.importance.toString().toLowerCase()).append(" | ")
                    .append(cell(key.documentation)).append(" |\n"));
        }
        return md.append('\n').toString();
    }

    private static String defaultValue(ConfigDef.ConfigKey key) {
        if (!key.hasDefault()) {
            return "*(required)*";
        }
        if (key.defaultValue == null) {
            return "*(unset)*";
        }
        String text = ConfigDef.convertToString(key.defaultValue, key.type);
        return text.isEmpty() ? "\"\"" : "`" + cell(text) + "`";
    }

    // Validators written as lambdas have no readable toString; their rule is in the description.
    private static String validValues(ConfigDef.ConfigKey key) {
        if (key.validator == null || key.validator.getClass().isSynthetic() || key.validator.getClass().isAnonymousClass()
                || key.validator.toString().contains("$$Lambda")) {
            return "";
        }
        return cell(key.validator.toString());
    }

    private static String cell(String text) {
        return text == null ? "" : text.replace("|", "\\|").replace("\n", " ");
    }
}
