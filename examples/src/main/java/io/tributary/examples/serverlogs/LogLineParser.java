package io.tributary.examples.serverlogs;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses an access-log line into a {@code ServerLog} Avro record (server-log.avsc):
 * {@code <ISO-8601 time> <host> <level> <method> <path> <status> <latency>ms <message>}.
 * The time becomes the record timestamp, not a field. Thread-safe.
 */
public final class LogLineParser {
    private static final Pattern LINE = Pattern.compile(
        "^(\\S+) (\\S+) (INFO|WARN|ERROR) ([A-Z]+) (\\S+) (\\d{3}) (\\d+)ms(?: (.*))?$");

    private final Schema schema;

    public LogLineParser(Schema schema) {
        this.schema = schema;
    }

    /** A parsed line: when it was written and its fields. */
    public record ParsedLine(long timestampMs, String host, GenericRecord record) {
    }

    /** @throws IllegalArgumentException naming the line and what is wrong with it */
    public ParsedLine parse(String line) {
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a server log line (expected '<time> <host> <INFO|WARN|ERROR> "
                + "<method> <path> <status> <latency>ms <message>'): " + line);
        }
        long timestamp;
        try {
            timestamp = Instant.parse(m.group(1)).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("bad time '" + m.group(1) + "' (expected ISO-8601 like "
                + "2026-11-30T08:00:01.123Z) in: " + line, e);
        }
        GenericRecord record = new GenericData.Record(schema);
        record.put("host", m.group(2));
        record.put("level", m.group(3));
        record.put("method", m.group(4));
        record.put("path", m.group(5));
        record.put("status", Integer.parseInt(m.group(6)));
        record.put("latency_ms", Long.parseLong(m.group(7)));
        record.put("message", m.group(8) == null ? "" : m.group(8));
        return new ParsedLine(timestamp, m.group(2), record);
    }
}
