package io.tributary.broker.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;

/**
 * The lines one logger (and the loggers under it) writes while this is open, at WARN and above unless told otherwise,
 * read through the log4j 1 API of the broker's logging backend (reload4j). Thread-safe.
 */
public final class CapturedLog implements AutoCloseable {
    /** One captured line. */
    public record Line(Level level, String logger, String message) {
        @Override
        public String toString() {
            return level + " " + logger + ": " + message;
        }
    }

    private final Logger logger;
    private final Level levelBefore;
    private final List<Line> lines = new CopyOnWriteArrayList<>();
    private final AppenderSkeleton appender;

    private CapturedLog(Logger logger, Level minimum) {
        this.logger = logger;
        this.levelBefore = logger.getLevel();
        if (!minimum.isGreaterOrEqual(logger.getEffectiveLevel())) {
            logger.setLevel(minimum); // lines below the configured level would never reach an appender
        }
        this.appender = new AppenderSkeleton() {
            @Override
            protected void append(LoggingEvent event) {
                if (event.getLevel().isGreaterOrEqual(minimum)) {
                    lines.add(new Line(event.getLevel(), event.getLoggerName(), event.getRenderedMessage()));
                }
            }

            @Override
            public void close() {
            }

            @Override
            public boolean requiresLayout() {
                return false;
            }
        };
        logger.addAppender(appender);
    }

    public static CapturedLog of(Class<?> loggerClass) {
        return new CapturedLog(Logger.getLogger(loggerClass), Level.WARN);
    }

    public static CapturedLog of(Class<?> loggerClass, Level threshold) {
        return new CapturedLog(Logger.getLogger(loggerClass), threshold);
    }

    /** Every logger's lines at WARN and above. */
    public static CapturedLog warningsOfAll() {
        return new CapturedLog(Logger.getRootLogger(), Level.WARN);
    }

    public List<Line> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void close() {
        logger.removeAppender(appender);
        logger.setLevel(levelBefore);
    }
}
