package io.tributary.compat.connect;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.SourceConnector;

import java.util.List;
import java.util.Map;

/** A source of {@value #RECORDS} numbered records ({@code record-0}, {@code record-1}, ...) to {@value #TOPIC}, in one task. */
public final class CountingSourceConnector extends SourceConnector {
    public static final String TOPIC = "topic";
    public static final String RECORDS = "records";

    static final ConfigDef CONFIG = new ConfigDef()
            .define(TOPIC, Type.STRING, Importance.HIGH, "The topic the records go to.")
            .define(RECORDS, Type.INT, Importance.HIGH, "How many records, in all.");

    private Map<String, String> settings;

    @Override
    public void start(Map<String, String> props) {
        settings = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return CountingSourceTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        return List.of(settings);
    }

    @Override
    public void stop() {
    }

    @Override
    public ConfigDef config() {
        return CONFIG;
    }

    @Override
    public String version() {
        return "1";
    }
}
