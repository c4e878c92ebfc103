package io.tributary.chaos.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** log4j 1 configurations for the child JVMs: timestamps to the millisecond, warnings, and the loggers the checks read. */
final class LogConfigs {
    private LogConfigs() {
    }

    /** Warnings and errors only. */
    static Path quiet(Path dir) {
        return write(dir, List.of());
    }

    /**
     * The broker's leadership, controller and replication lines at INFO: the split-brain check
     * reads "leader at epoch" from them.
     */
    static Path broker(Path dir) {
        return write(dir, List.of("log4j.logger.io.tributary.broker.Server=INFO",
                "log4j.logger.io.tributary.broker.controller=INFO",
                "log4j.logger.io.tributary.broker.replica=INFO"));
    }

    private static Path write(Path dir, List<String> loggers) {
        List<String> lines = new ArrayList<>(List.of(
                "log4j.rootLogger=WARN, stderr",
                "log4j.appender.stderr=org.apache.log4j.ConsoleAppender",
                "log4j.appender.stderr.Target=System.err",
                "log4j.appender.stderr.layout=org.apache.log4j.PatternLayout",
                "log4j.appender.stderr.layout.ConversionPattern=%d{ISO8601} %-5p [%t] %c{1}: %m%n"));
        lines.addAll(loggers);
        lines.add("");
        Path file = dir.resolve("log4j.properties");
        try {
            Files.writeString(file, String.join("\n", lines));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }
}
