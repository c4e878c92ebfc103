package io.tributary.examples.pageviews;

import io.tributary.sink.SinkConfig;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The example's sink configuration: {@code pageviews/sink.properties} from the class path (the
 * same file the README runs with {@code bin/tributary-sink}), pointed at a broker and a dataset.
 */
public final class PageViewSinkSettings {
    static final String RESOURCE = "/io/tributary/examples/pageviews/sink.properties";

    private PageViewSinkSettings() {
    }

    public static Map<String, String> forRun(String bootstrapServers, Path warehouse, Path schemaFile, String group) {
        Map<String, String> settings = fromFile();
        settings.put(SinkConfig.BOOTSTRAP_SERVERS, bootstrapServers);
        settings.put(SinkConfig.OUTPUT_DIR, warehouse.toAbsolutePath().toUri().toString());
        settings.put(SinkConfig.VALUE_SCHEMA, schemaFile.toAbsolutePath().toString());
        settings.put(SinkConfig.GROUP_ID, group);
        return settings;
    }

    static Map<String, String> fromFile() {
        Properties props = new Properties();
        try (InputStream in = PageViewSinkSettings.class.getResourceAsStream(RESOURCE)) {
            props.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> settings = new HashMap<>();
        props.stringPropertyNames().forEach(key -> settings.put(key, props.getProperty(key).trim()));
        return settings;
    }
}
