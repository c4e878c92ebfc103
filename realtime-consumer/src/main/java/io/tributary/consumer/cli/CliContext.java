package io.tributary.consumer.cli;

import org.apache.kafka.common.utils.Time;

import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * What a command may touch outside its arguments: the standard streams, whether stderr is a
 * terminal (for the live status line), extra Kafka client settings and the clock. Tests build
 * one around in-memory streams; {@link #system()} is the real process.
 *
 * @param clientOverrides Kafka client settings applied to every Admin, producer and consumer the
 *                        commands create, over the CLI's defaults (tests shorten the timeouts)
 */
public record CliContext(InputStream in, PrintWriter out, PrintWriter err, boolean stderrIsTerminal,
                         Map<String, Object> clientOverrides, Time time) {

    public CliContext {
        clientOverrides = Map.copyOf(clientOverrides);
    }

    public static CliContext system() {
        return new CliContext(System.in,
                new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8),
                System.console() != null, Map.of(), Time.SYSTEM);
    }
}
