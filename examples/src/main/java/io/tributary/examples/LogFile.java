package io.tributary.examples;

import org.apache.log4j.LogManager;
import org.apache.log4j.PropertyConfigurator;

import java.nio.file.Path;
import java.util.Properties;

/**
 * Sends the log of everything running in this JVM (broker, ZooKeeper, consumers, sink, Hadoop) to
 * a file, so the console shows the example's own lines; errors still reach stderr.
 */
public final class LogFile {
    private LogFile() {
    }

    /** {@code verbose} also shows INFO lines on stderr. */
    public static void redirect(Path file, boolean verbose) {
        Properties p = new Properties();
        p.setProperty("log4j.rootLogger", "INFO, file, stderr");
        p.setProperty("log4j.appender.file", "org.apache.log4j.FileAppender");
        p.setProperty("log4j.appender.file.File", file.toAbsolutePath().toString());
        p.setProperty("log4j.appender.file.layout", "org.apache.log4j.PatternLayout");
        p.setProperty("log4j.appender.file.layout.ConversionPattern", "[%d{ISO8601}] %-5p [%t] %c{1}: %m%n");
        p.setProperty("log4j.appender.stderr", "org.apache.log4j.ConsoleAppender");
        p.setProperty("log4j.appender.stderr.Target", "System.err");
        p.setProperty("log4j.appender.stderr.Threshold", verbose ? "INFO" : "ERROR");
        p.setProperty("log4j.appender.stderr.layout", "org.apache.log4j.PatternLayout");
        p.setProperty("log4j.appender.stderr.layout.ConversionPattern", "[%d{ISO8601}] %-5p %c{1}: %m%n");
        // The libraries that talk a lot at INFO, as in config/log4j.properties.
        for (String chatty : new String[] {"org.apache.zookeeper", "org.apache.curator", "org.apache.kafka",
                "org.apache.hadoop", "org.apache.parquet"}) {
            p.setProperty("log4j.logger." + chatty, "WARN");
        }
        LogManager.resetConfiguration();
        PropertyConfigurator.configure(p);
    }
}
