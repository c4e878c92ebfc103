package io.tributary.examples.serverlogs;

import io.tributary.examples.SchemaFiles;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LogLineParserTest {
    private final LogLineParser parser = new LogLineParser(SchemaFiles.parse(ErrorsPerHostJob.SCHEMA_RESOURCE));

    @Test
    void parsesEveryFieldAndTakesTheTimeAsTheTimestamp() {
        LogLineParser.ParsedLine parsed = parser.parse("2026-11-30T08:00:01.123Z host-03 ERROR POST /api/orders 502 1234ms upstream timed out");

        assertThat(parsed.timestampMs()).isEqualTo(Instant.parse("2026-11-30T08:00:01.123Z").toEpochMilli());
        assertThat(parsed.host()).isEqualTo("host-03");
        GenericRecord r = parsed.record();
        assertThat(r.get("host")).isEqualTo("host-03");
        assertThat(r.get("level")).isEqualTo("ERROR");
        assertThat(r.get("method")).isEqualTo("POST");
        assertThat(r.get("path")).isEqualTo("/api/orders");
        assertThat(r.get("status")).isEqualTo(502);
        assertThat(r.get("latency_ms")).isEqualTo(1234L);
        assertThat(r.get("message")).isEqualTo("upstream timed out");
    }

    @Test
    void aLineWithoutMessageHasAnEmptyOne() {
        assertThat(parser.parse("2026-11-30T08:00:01Z host-01 INFO GET / 200 5ms").record().get("message")).isEqualTo("");
    }

    @Test
    void badLinesAreClearErrorsNamingTheLine() {
        assertThatThrownBy(() -> parser.parse("host-01 did something"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("not a server log line")
            .hasMessageEndingWith("host-01 did something");
        assertThatThrownBy(() -> parser.parse("yesterday host-01 INFO GET / 200 5ms ok"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("bad time 'yesterday'");
        assertThatThrownBy(() -> parser.parse("2026-11-30T08:00:01Z host-01 DEBUG GET / 200 5ms ok"))
            .hasMessageContaining("not a server log line");
    }

    @Test
    void everyGeneratedLineParsesAndEveryHostHasErrors() {
        LogLineGenerator generator = new LogLineGenerator(7, 4);
        Map<String, Integer> errors = new TreeMap<>();
        for (int i = 0; i < 5000; i++) {
            GenericRecord r = parser.parse(generator.next(1_764_489_600_000L + i)).record();
            if (r.get("level").equals("ERROR")) {
                errors.merge((String) r.get("host"), 1, Integer::sum);
            }
        }
        assertThat(errors).containsOnlyKeys("host-01", "host-02", "host-03", "host-04");
        assertThat(errors.get("host-04")).isGreaterThan(errors.get("host-01"));
    }
}
