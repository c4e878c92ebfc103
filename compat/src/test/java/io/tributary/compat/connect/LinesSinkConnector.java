package io.tributary.compat.connect;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

import java.util.List;
import java.util.Map;

/** A sink that appends each record's value as a line of {@value #FILE}, in one task. */
public final class LinesSinkConnector extends SinkConnector {
    public static final String FILE = "file";

    static final ConfigDef CONFIG = new ConfigDef()
            .define(FILE, Type.STRING, Importance.HIGH, "The file the values are appended to, a line each.");

    private Map<String, String> settings;

    @Override
    public void start(Map<String, String> props) {
        settings = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return LinesSinkTask.class;
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
